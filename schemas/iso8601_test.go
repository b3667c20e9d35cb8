package schemas

import (
	"regexp"
	"testing"
	"time"
)

func TestParseISO8601AcceptsTheStandardsForms(t *testing.T) {
	instant := time.Date(2026, 11, 22, 3, 16, 18, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
		utc  bool
		prec time.Duration
	}{
		{"2026-11-22T03:16:18Z", instant, true, time.Second},
		{"2026-11-22T03:16:18.123456Z", instant.Add(123456 * time.Microsecond), true, time.Microsecond},
		{"2026-11-22T03:16:18,5Z", instant.Add(500 * time.Millisecond), true, 100 * time.Millisecond},
		{"2026-11-22T03:16:18+00:00", instant, true, time.Second},
		{"2026-11-22T03:16:18+0000", instant, true, time.Second},
		{"2026-11-22T03:16:18+00", instant, true, time.Second},
		{"2026-11-22T03:16:18-00:00", instant, true, time.Second},
		{"2026-11-22T04:16:18+01:00", instant, false, time.Second},
		{"2026-11-21T22:16:18-0500", instant, false, time.Second},
		{"20261122T031618Z", instant, true, time.Second},
		{"20261122T0316Z", instant.Add(-18 * time.Second), true, time.Minute},
		{"2026-11-22T03:16Z", instant.Add(-18 * time.Second), true, time.Minute},
		{"2026-11-22T03Z", instant.Add(-16*time.Minute - 18*time.Second), true, time.Hour},
		{"2026-11-22T03:16,3Z", instant, true, 6 * time.Second},
		{"2026-W47-7T03:16:18Z", instant, true, time.Second},
		{"2026W477T031618Z", instant, true, time.Second},
		{"2026-326T03:16:18Z", instant, true, time.Second},
		{"2026326T031618Z", instant, true, time.Second},
		{"2026-11-22t03:16:18z", instant, true, time.Second},
		{"2026-11-21T24:00:00Z", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), true, time.Second},
		{"2016-12-31T23:59:60Z", time.Date(2017, 1, 1, 0, 0, 0, 0, time.UTC), true, time.Second},
	} {
		ts, err := ParseISO8601(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !isoRe.MatchString(tc.in) || isoUTCRe.MatchString(tc.in) != tc.utc {
			t.Errorf("%s: the patterns disagree with the parser", tc.in)
		}
		if !ts.Time.Equal(tc.want) || !ts.Zoned || ts.UTC != tc.utc || ts.Precision != tc.prec {
			t.Errorf("%s: got %v utc %v prec %v, want %v utc %v prec %v", tc.in, ts.Time, ts.UTC, ts.Precision, tc.want, tc.utc, tc.prec)
		}
	}
	// Local time without a designator is ISO 8601 too (an envelope's
	// timestamp need not be UTC), but no instant.
	ts, err := ParseISO8601("2026-11-22T03:16:18.123")
	if err != nil || ts.Zoned || ts.UTC {
		t.Fatalf("local time: %+v %v", ts, err)
	}
}

func TestParseISO8601RefusesWhatIsNotADateAndTime(t *testing.T) {
	for _, in := range []string{
		"", "2026-11-22", "03:16:18Z", "Sun, 22 Nov 2026 03:16:18 GMT", "1763781378", "2026/11/22T03:16:18Z",
		"2026-11-22 03:16:18Z",     // a space is RFC 3339's note, not ISO 8601
		"2026-13-22T03:16:18Z",     // month 13
		"2026-02-30T03:16:18Z",     // February 30
		"2026-11-22T25:00:00Z",     // hour 25
		"2026-11-22T24:00:01Z",     // 24 only as the end of the day
		"2026-11-22T03:16:18+24",   // offset out of range
		"2026-11-22T03:16:18+1",    // one-digit offset
		"2026-11-22T03:16:18.Z",    // a fraction without digits
		"2026-11-22T031618Z",       // extended date, basic time
		"20261122T03:16:18Z",       // basic date, extended time
		"2026-W54-1T00:00:00Z",     // week 54
		"2026-366T00:00:00Z",       // 2026 is not a leap year
		"2026-11-22T03:16:18+05:3", // half an offset
		"P1DT2H",                   // a duration
	} {
		if ts, err := ParseISO8601(in); err == nil {
			t.Errorf("%q accepted as %+v", in, ts)
		}
		if isoRe.MatchString(in) && !rangeOnly[in] {
			t.Errorf("%q matches ISO8601Pattern", in)
		}
	}
}

var (
	isoRe    = regexp.MustCompile(ISO8601Pattern)
	isoUTCRe = regexp.MustCompile(ISO8601UTCPattern)
	// rangeOnly are refused by the parser for a range the patterns do not check.
	rangeOnly = map[string]bool{"2026-13-22T03:16:18Z": true, "2026-02-30T03:16:18Z": true, "2026-11-22T25:00:00Z": true,
		"2026-11-22T24:00:01Z": true, "2026-11-22T03:16:18+24": true, "2026-W54-1T00:00:00Z": true, "2026-366T00:00:00Z": true}
)

func TestTimestampFormatsInTheSchemas(t *testing.T) {
	for _, tc := range []struct {
		schema, body string
		ok           bool
	}{
		{ErrorEnvelope, `{"status":"error","statusCode":404,"message":"x","error":"Not Found","timestamp":"2026-11-22T03:16:18","path":"/v1/merchant/cards/x"}`, true},
		{ErrorEnvelope, `{"status":"error","statusCode":404,"message":"x","error":"Not Found","timestamp":"20261122T031618+0100","path":"/v1/merchant/cards/x"}`, true},
		{ErrorEnvelope, `{"status":"error","statusCode":404,"message":"x","error":"Not Found","timestamp":"22/11/2026 03:16","path":"/v1/merchant/cards/x"}`, false},
		{Card, `{"id":"crd_1","cardType":"VIRTUAL","maskedPan":"411111******1234","balanceAmount":1,"currency":"USD","status":"ACTIVE","createdStatus":"COMPLETED","createdAt":"2026-11-22T03:16:18+0000"}`, true},
		{Card, `{"id":"crd_1","cardType":"VIRTUAL","maskedPan":"411111******1234","balanceAmount":1,"currency":"USD","status":"ACTIVE","createdStatus":"COMPLETED","createdAt":"2026-11-22T04:16:18+01:00"}`, false},
		{Card, `{"id":"crd_1","cardType":"VIRTUAL","maskedPan":"411111******1234","balanceAmount":1,"currency":"USD","status":"ACTIVE","createdStatus":"COMPLETED","createdAt":"2026-11-22T03:16:18"}`, false},
	} {
		err := Validate(tc.schema, []byte(tc.body))
		if (err == nil) != tc.ok {
			t.Errorf("%s %s: err %v, want ok %v", tc.schema, tc.body, err, tc.ok)
		}
	}
}
