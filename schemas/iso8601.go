package schemas

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Timestamp is a date and time read in any representation ISO 8601-1 allows
// for a point in time: a calendar (YYYY-MM-DD), week (YYYY-Www-D) or ordinal
// (YYYY-DDD) date, then T and a time of day of full or reduced precision
// (hh:mm:ss, hh:mm, hh) with an optional decimal fraction of its last
// component (a comma or a full stop), all in the basic or all in the
// extended format, and an optional zone designator: Z, ±hh, ±hhmm or ±hh:mm.
// Without a designator the time is local time of an unknown zone.
//
// The API document says "ISO 8601" for the envelopes' timestamp and "ISO
// 8601 UTC timestamp" for resource fields; RFC 3339 date-time is one narrow
// profile of it, so a checker built on RFC 3339 alone fails servers the
// document allows (issue 18).
type Timestamp struct {
	Time time.Time // in UTC when a designator is given; as read otherwise
	// Zoned: a zone designator was given (Time is then an exact instant).
	Zoned bool
	// UTC: the designator is Z or a zero offset (+00, +0000, +00:00, -00:00).
	UTC bool
	// Precision is the smallest unit written: time.Hour, time.Minute,
	// time.Second, or less when a fraction is given.
	Precision time.Duration
}

// ParseISO8601 reads s as an ISO 8601 date and time (see Timestamp). A date
// alone, a time alone, a duration or an interval is refused: the document's
// fields are timestamps.
func ParseISO8601(s string) (Timestamp, error) {
	fail := func(why string) (Timestamp, error) {
		return Timestamp{}, fmt.Errorf("%q is not an ISO 8601 date and time: %s", s, why)
	}
	i := strings.IndexAny(s, "Tt")
	if i < 0 {
		return fail("no T between the date and the time")
	}
	y, yday, basicDate, err := parseISODate(s[:i])
	if err != nil {
		return fail(err.Error())
	}
	rest := s[i+1:]
	zone := ""
	if j := strings.IndexAny(rest, "Zz+-"); j >= 0 {
		rest, zone = rest[:j], rest[j:]
	}
	clock, prec, basicTime, err := parseISOTime(rest)
	if err != nil {
		return fail(err.Error())
	}
	if basicTime != basicDate && rest != "" && len(rest) > 2 {
		return fail("the basic and the extended format are mixed")
	}
	t := time.Date(y, 1, yday, 0, 0, 0, 0, time.UTC).Add(clock)
	ts := Timestamp{Time: t, Precision: prec}
	if zone == "" {
		return ts, nil
	}
	off, utc, err := parseISOZone(zone)
	if err != nil {
		return fail(err.Error())
	}
	ts.Zoned, ts.UTC, ts.Time = true, utc, t.Add(-off)
	return ts, nil
}

// parseISODate reads a calendar, week or ordinal date, basic or extended,
// and returns the year and the day of the year (1-based, week dates
// resolved).
func parseISODate(d string) (year, yday int, basic bool, err error) {
	if len(d) < 7 || !digits(d[:4]) {
		return 0, 0, false, errors.New("the date does not start with a 4-digit year")
	}
	year, _ = strconv.Atoi(d[:4])
	rest := d[4:]
	basic = rest[0] != '-'
	if !basic {
		rest = rest[1:]
	}
	switch {
	case rest != "" && rest[0] == 'W': // week date: Www-D or WwwD
		w := rest[1:]
		if !basic && len(w) == 4 && w[2] == '-' {
			w = w[:2] + w[3:]
		}
		if len(w) != 3 || !digits(w) {
			return 0, 0, false, errors.New("a week date must be YYYY-Www-D or YYYYWwwD")
		}
		week, _ := strconv.Atoi(w[:2])
		wday, _ := strconv.Atoi(w[2:])
		if week < 1 || week > isoWeeks(year) || wday < 1 || wday > 7 {
			return 0, 0, false, errors.New("the week or the day of the week is out of range")
		}
		// Day 1 of week 1 is the Monday of the week holding January 4.
		jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, time.UTC)
		monday := 4 - (int(jan4.Weekday())+6)%7
		return year, monday + (week-1)*7 + wday - 1, basic, nil
	case len(rest) == 3 && digits(rest): // ordinal date
		n, _ := strconv.Atoi(rest)
		if n < 1 || n > time.Date(year, 12, 31, 0, 0, 0, 0, time.UTC).YearDay() {
			return 0, 0, false, errors.New("the day of the year is out of range")
		}
		return year, n, basic, nil
	}
	md := rest
	if !basic {
		if len(md) != 5 || md[2] != '-' {
			return 0, 0, false, errors.New("a calendar date must be YYYY-MM-DD or YYYYMMDD")
		}
		md = md[:2] + md[3:]
	}
	if len(md) != 4 || !digits(md) {
		return 0, 0, false, errors.New("a calendar date must be YYYY-MM-DD or YYYYMMDD")
	}
	m, _ := strconv.Atoi(md[:2])
	day, _ := strconv.Atoi(md[2:])
	t := time.Date(year, time.Month(m), day, 0, 0, 0, 0, time.UTC)
	if m < 1 || m > 12 || day < 1 || t.Month() != time.Month(m) {
		return 0, 0, false, errors.New("the month or the day is out of range")
	}
	return year, t.YearDay(), basic, nil
}

func isoWeeks(year int) int {
	// A year has 53 weeks when it starts on a Thursday, or on a Wednesday
	// in a leap year; that is, when December 28 is in week 53.
	_, w := time.Date(year, 12, 28, 0, 0, 0, 0, time.UTC).ISOWeek()
	return w
}

// parseISOTime reads hh[:mm[:ss]] or hh[mm[ss]] with an optional fraction of
// the last component, and returns the time since midnight and the precision.
func parseISOTime(t string) (time.Duration, time.Duration, bool, error) {
	whole, frac := t, ""
	if k := strings.IndexAny(t, ".,"); k >= 0 {
		whole, frac = t[:k], t[k+1:]
		if frac == "" || !digits(frac) {
			return 0, 0, false, errors.New("the decimal fraction has no digits")
		}
	}
	basic := !strings.Contains(whole, ":")
	parts := []string{}
	if basic {
		if len(whole)%2 != 0 || len(whole) == 0 || len(whole) > 6 || !digits(whole) {
			return 0, 0, false, errors.New("the time must be hh, hhmm or hhmmss (or with colons)")
		}
		for k := 0; k < len(whole); k += 2 {
			parts = append(parts, whole[k:k+2])
		}
	} else {
		parts = strings.Split(whole, ":")
		if len(parts) > 3 {
			return 0, 0, false, errors.New("the time has more than hours, minutes and seconds")
		}
		for _, p := range parts {
			if len(p) != 2 || !digits(p) {
				return 0, 0, false, errors.New("each time component has two digits")
			}
		}
	}
	units := []time.Duration{time.Hour, time.Minute, time.Second}
	limits := []int{24, 59, 60} // 24:00 is the end of the day; :60 a leap second
	var d time.Duration
	for k, p := range parts {
		n, _ := strconv.Atoi(p)
		if n > limits[k] {
			return 0, 0, false, errors.New("a time component is out of range")
		}
		d += time.Duration(n) * units[k]
	}
	if d > 24*time.Hour || (parts[0] == "24" && d != 24*time.Hour) {
		return 0, 0, false, errors.New("24 is only allowed as 24:00:00, the end of the day")
	}
	prec := units[len(parts)-1]
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		f, _ := strconv.Atoi(frac)
		scale := prec
		for range len(frac) {
			scale /= 10
		}
		d += time.Duration(f) * scale
		prec = max(scale, 1)
	}
	return d, prec, basic, nil
}

// parseISOZone reads Z, ±hh, ±hhmm or ±hh:mm.
func parseISOZone(z string) (time.Duration, bool, error) {
	if z == "Z" || z == "z" {
		return 0, true, nil
	}
	sign := time.Duration(1)
	if z[0] == '-' {
		sign = -1
	}
	hm := strings.Replace(z[1:], ":", "", 1)
	if (len(hm) != 2 && len(hm) != 4) || !digits(hm) || (len(z) == 6 && z[3] != ':') {
		return 0, false, errors.New("the zone designator must be Z, ±hh, ±hhmm or ±hh:mm")
	}
	h, _ := strconv.Atoi(hm[:2])
	m := 0
	if len(hm) == 4 {
		m, _ = strconv.Atoi(hm[2:])
	}
	if h > 23 || m > 59 {
		return 0, false, errors.New("the offset is out of range")
	}
	off := sign * (time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
	return off, off == 0, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// The formats the schemas name for the document's two kinds of timestamp.
const (
	// FormatTimestamp: "timestamp (ISO 8601)" of the envelopes.
	FormatTimestamp = "iso8601-date-time"
	// FormatUTCTimestamp: "ISO 8601 UTC timestamp" of resource fields: a
	// designator of UTC (Z or a zero offset) is required.
	FormatUTCTimestamp = "iso8601-utc-date-time"
)

var timestampFormats = []*jsonschema.Format{
	{Name: FormatTimestamp, Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil // format asserts strings only
		}
		_, err := ParseISO8601(s)
		return err
	}},
	{Name: FormatUTCTimestamp, Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		ts, err := ParseISO8601(s)
		if err == nil && !ts.UTC {
			err = fmt.Errorf("%q is not in UTC: its zone designator must be Z or a zero offset", s)
		}
		return err
	}},
}

// Regular expressions of the same forms, for tools that know neither format
// (the OpenAPI export gives them as pattern): they check the structure, not
// the ranges (month 13 matches them; ParseISO8601 refuses it).
const (
	isoDateTime = `(?:[0-9]{4}-(?:[0-9]{2}-[0-9]{2}|W[0-9]{2}-[0-9]|[0-9]{3})[Tt][0-9]{2}(?::[0-9]{2}(?::[0-9]{2})?)?` +
		`|[0-9]{4}(?:[0-9]{4}|W[0-9]{3}|[0-9]{3})[Tt][0-9]{2}(?:[0-9]{2}(?:[0-9]{2})?)?)(?:[.,][0-9]+)?`
	// ISO8601Pattern matches FormatTimestamp's forms.
	ISO8601Pattern = `^` + isoDateTime + `(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?$`
	// ISO8601UTCPattern matches FormatUTCTimestamp's forms.
	ISO8601UTCPattern = `^` + isoDateTime + `(?:[Zz]|[+-]00(?::?00)?)$`
)
