package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/authtoken"
)

func TestTokenVerdictRefusesOnlyWhatCannotBeTested(t *testing.T) {
	const good = `{"status":"success","data":{"accessToken":"a.b.c","tokenType":"Bearer","expiresIn":900,"environment":"TEST","merchantId":"m"},"timestamp":"2026-01-01T00:00:00.000Z","path":"/v1/merchant/auth/token"}`
	cases := []struct {
		name, key, body string
		status          int
		refused         bool
		problem         bool
		env             string
	}{
		{"valid", "sk_test_x", good, 200, false, false, "TEST"},
		{"rejected credentials", "sk_test_x", `{"status":"error"}`, 401, true, false, ""},
		{"forbidden", "sk_test_x", `{}`, 403, true, false, ""},
		{"wrong root", "sk_test_x", `{}`, 404, true, false, ""},
		{"server error without token", "sk_test_x", `oops`, 500, true, false, ""},
		{"server error with a token", "sk_test_x", good, 503, true, false, ""},
		{"not JSON", "sk_test_x", `<html>`, 200, true, false, ""},
		{"no access token", "sk_test_x", `{"status":"success","data":{"environment":"TEST"}}`, 200, true, false, ""},
		{"token without environment", "sk_test_x", `{"status":"success","data":{"accessToken":"a.b.c","tokenType":"Bearer","expiresIn":900}}`, 200, false, true, "TEST"},
		{"token without environment, non-test key", "sk_live_x", `{"status":"success","data":{"accessToken":"a.b.c"}}`, 200, false, true, "LIVE"},
		{"flat token answer", "sk_test_x", `{"accessToken":"a.b.c","environment":"TEST"}`, 200, false, true, "TEST"},
		{"token with 201", "sk_test_x", strings.Replace(good, `"TEST"`, `"LIVE"`, 1), 201, false, true, "LIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := &Config{BaseURL: "http://x/v1/merchant", Primary: Credentials{"m", c.key}}
			tok, _ := authtoken.Decode(c.status, nil, []byte(c.body))
			f, err := tokenVerdict(cfg, &authtoken.Answer{Status: c.status, Body: []byte(c.body), Token: tok})
			var pe *PreflightError
			if c.refused != errors.As(err, &pe) {
				t.Fatalf("refused = %v, want %v (err %v)", err != nil, c.refused, err)
			}
			if c.refused {
				return
			}
			if (f.TokenProblem != "") != c.problem {
				t.Fatalf("token problem %q, want one: %v", f.TokenProblem, c.problem)
			}
			if f.Environment != c.env {
				t.Fatalf("environment %q, want %q", f.Environment, c.env)
			}
		})
	}
}
