package schemas

import (
	"strings"
	"testing"
	"time"
)

// A number beyond the bounds is one violation found in a scan, never
// handed to exact arithmetic (a million-digit statusCode took the
// validator 4 GB and 10 s); numbers in strings and ordinary ones pass.
func TestNumbersBeyondTheBounds(t *testing.T) {
	env := func(code string) []byte {
		return []byte(`{"status":"error","statusCode":` + code + `,"message":"x","error":"Bad Request","timestamp":"2026-01-01T00:00:00Z","path":"/x"}`)
	}
	for _, code := range []string{"1" + strings.Repeat("0", 1000000), "1e999999999", "4e401", "-1E-999"} {
		start := time.Now()
		err := Validate(ErrorEnvelope, env(code))
		ve, ok := err.(*ValidationError)
		if !ok || len(ve.Violations) != 1 || ve.Violations[0].Rule != "number-bounds" || time.Since(start) > time.Second {
			t.Errorf("%.12s: %v after %s", code, err, time.Since(start))
		}
	}
	if err := Validate(ErrorEnvelope, env("400")); err != nil {
		t.Errorf("an ordinary status: %v", err)
	}
	body := []byte(`{"status":"error","statusCode":400,"message":"` + strings.Repeat("9", 200) + `","error":"Bad Request","timestamp":"2026-01-01T00:00:00Z","path":"/x"}`)
	if err := Validate(ErrorEnvelope, body); err != nil {
		t.Errorf("digits inside a string are no number: %v", err)
	}
	for lit, ok := range map[string]bool{"123.45": true, "1e400": true, "1e401": false, strings.Repeat("1", 64): true, strings.Repeat("1", 65): false} {
		if got := NumberReadable(lit) == ""; got != ok {
			t.Errorf("NumberReadable(%.20s) readable = %v, want %v", lit, got, ok)
		}
	}
}
