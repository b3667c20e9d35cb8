// Package liveguard keeps LIVE money safe from a target that lies about its
// environment. Whether credentials are LIVE is decided by the most cautious
// of four signals: the secret key's prefix, the environment the token
// answer states, the access token's JWT claims and the environment GET
// /cards/config states. Any one saying LIVE, or two disagreeing, makes them
// LIVE; only signals that agree on TEST make them TEST. A Guard (guard.go)
// refuses every write carrying a LIVE credential unless the operator
// consented (--allow-live), whatever client sends it.
package liveguard

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/httpclient"
)

// The two environments of the API document.
const (
	Test = "TEST"
	Live = "LIVE"
)

// Signals are what each source says of the environment: TEST, LIVE,
// another word it used, or "" when it says nothing.
type Signals struct {
	Key    string // the secret key's prefix (sk_test_, sk_live_)
	Token  string // the token answer's environment
	Claims string // the access token's JWT claims
	Config string // GET /cards/config's environment
}

// Verdict is the decision on one set of credentials.
type Verdict struct {
	Live    bool
	Signals Signals
	// Why names the signals behind a LIVE verdict ("" for TEST).
	Why string
	// Disagreement says which signals contradict each other ("" when
	// none): a finding about the target, whatever the verdict.
	Disagreement string
}

// Environment is LIVE or TEST as decided.
func (v Verdict) Environment() string {
	if v.Live {
		return Live
	}
	return Test
}

// Decide takes the most cautious reading of s.
func Decide(s Signals) Verdict {
	v := Verdict{Signals: s}
	said := s.said()
	var live, test []string
	for _, n := range said {
		if n.value == Test {
			test = append(test, n.what+" says TEST")
		} else {
			live = append(live, fmt.Sprintf("%s says %s", n.what, n.value))
		}
	}
	if len(live) > 0 && len(test) > 0 {
		v.Disagreement = strings.Join(append(append([]string{}, test...), live...), ", ")
	}
	switch {
	case len(live) > 0:
		v.Live, v.Why = true, strings.Join(live, ", ")
		if v.Disagreement != "" {
			v.Why = "the signals disagree (" + v.Disagreement + ")"
		}
	case len(test) == 0:
		v.Live, v.Why = true, "nothing states TEST (no key prefix, token environment, JWT claim or /cards/config environment)"
	}
	return v
}

type said struct{ what, value string }

func (s Signals) said() []said {
	var out []said
	for _, x := range []said{{"the secret key's prefix", s.Key}, {"the token answer", s.Token},
		{"the token's JWT claim", s.Claims}, {"GET /cards/config", s.Config}} {
		if x.value = normal(x.value); x.value != "" {
			out = append(out, x)
		}
	}
	return out
}

// normal upper-cases an environment word; any word but TEST counts as not
// TEST (a target answering "PRODUCTION" or garbage is not trusted as TEST).
func normal(v string) string {
	v = strings.ToUpper(strings.TrimSpace(v))
	if len(v) > 20 {
		v = v[:20] + "…"
	}
	return v
}

// KeyEnvironment reads a secret key's prefix: sk_test_ keys are sandbox
// keys (the document), sk_live_ keys LIVE; any other key says nothing.
func KeyEnvironment(key string) string {
	k := strings.ToLower(strings.TrimSpace(key))
	switch {
	case strings.HasPrefix(k, "sk_test_"):
		return Test
	case strings.HasPrefix(k, "sk_live_"), strings.HasPrefix(k, "live_"):
		return Live
	}
	return ""
}

// ClaimsEnvironment reads the environment a JWT's claims state ("" when the
// token is no JWT or states none): env, environment or mode (test, sandbox;
// live, prod, production), livemode or live (booleans), testmode or sandbox
// (booleans).
func ClaimsEnvironment(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || len(parts[1]) > 16<<10 {
		return ""
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return ""
	}
	var claims map[string]any
	if json.Unmarshal(raw, &claims) != nil {
		return ""
	}
	found := ""
	for k, v := range claims {
		if e := claimEnvironment(strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k)), v); e != "" {
			if found == "" || e != Test {
				found = e // a LIVE claim wins over a TEST one
			}
		}
	}
	return found
}

func claimEnvironment(name string, v any) string {
	switch name {
	case "env", "environment", "mode":
		s, _ := v.(string)
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "":
			return ""
		case "test", "sandbox":
			return Test
		}
		return Live // live, prod, production or anything else: not TEST
	case "livemode", "live", "islive":
		if b, ok := v.(bool); ok && !b {
			return Test
		} else if ok {
			return Live
		}
	case "testmode", "sandbox", "istest":
		if b, ok := v.(bool); ok && b {
			return Test
		} else if ok {
			return Live
		}
	}
	return ""
}

// configMaxBody bounds what is read of the configuration answer.
const configMaxBody = 64 << 10

// ConfigEnvironment reads GET {base}/cards/config with the bearer token and
// returns the environment it states ("" when the call fails or states
// none: that signal is then silent). The call is a read.
func ConfigEnvironment(ctx context.Context, hc *http.Client, base, token string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/cards/config", nil)
	if err != nil {
		return ""
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	raw, err := httpclient.ReadBody(resp.Body, configMaxBody)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return ""
	}
	var doc struct {
		Environment string `json:"environment"`
		Data        struct {
			Environment string `json:"environment"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return ""
	}
	if doc.Data.Environment != "" {
		return doc.Data.Environment
	}
	return doc.Environment
}

// Check decides the environment of credentials whose token answer stated
// tokenEnv and gave token, asking /cards/config with it.
func Check(ctx context.Context, hc *http.Client, base, secretKey, tokenEnv, token string) Verdict {
	s := Signals{Key: KeyEnvironment(secretKey), Token: tokenEnv, Claims: ClaimsEnvironment(token)}
	if token != "" {
		s.Config = ConfigEnvironment(ctx, hc, base, token)
	}
	return Decide(s)
}
