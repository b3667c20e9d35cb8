package liveguard

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestDecideTakesTheMostCautiousSignal(t *testing.T) {
	for _, c := range []struct {
		name     string
		s        Signals
		live     bool
		disagree bool
	}{
		{"all TEST", Signals{Key: Test, Token: Test, Claims: Test, Config: Test}, false, false},
		{"only the token, TEST", Signals{Token: Test}, false, false},
		{"lower-case test", Signals{Token: "test"}, false, false},
		{"nothing said", Signals{}, true, false},
		{"the token lies TEST for an sk_live_ key", Signals{Key: Live, Token: Test, Claims: Live, Config: Live}, true, true},
		{"only /cards/config says LIVE", Signals{Key: Test, Token: Test, Claims: Test, Config: Live}, true, true},
		{"only the claims say LIVE", Signals{Token: Test, Claims: Live}, true, true},
		{"a word that is not TEST", Signals{Token: "PRODUCTION"}, true, false},
		{"all LIVE", Signals{Key: Live, Token: Live}, true, false},
	} {
		v := Decide(c.s)
		if v.Live != c.live || (v.Disagreement != "") != c.disagree {
			t.Errorf("%s: got live=%v disagreement=%q, want live=%v disagreement=%v", c.name, v.Live, v.Disagreement, c.live, c.disagree)
		}
		if v.Live && v.Why == "" {
			t.Errorf("%s: a LIVE verdict names no reason", c.name)
		}
	}
}

func jwtWith(claims map[string]any) string {
	h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	b, _ := json.Marshal(claims)
	return h + "." + base64.RawURLEncoding.EncodeToString(b) + ".c2ln"
}

func TestClaimsAndKeys(t *testing.T) {
	for tok, want := range map[string]string{
		jwtWith(map[string]any{"env": "LIVE"}):                   Live,
		jwtWith(map[string]any{"env": "TEST"}):                   Test,
		jwtWith(map[string]any{"environment": "production"}):     Live,
		jwtWith(map[string]any{"livemode": false}):               Test,
		jwtWith(map[string]any{"live_mode": true}):               Live,
		jwtWith(map[string]any{"env": "TEST", "livemode": true}): Live,
		jwtWith(map[string]any{"sub": "mer_1"}):                  "",
		"not-a-jwt":                                              "",
		"a.b.c":                                                  "",
	} {
		if got := ClaimsEnvironment(tok); got != want {
			t.Errorf("claims of %s: %q, want %q", tok, got, want)
		}
	}
	for key, want := range map[string]string{"sk_test_abc": Test, "sk_live_abc": Live, "SK_LIVE_x": Live, "Zq9Vx2Lm": ""} {
		if got := KeyEnvironment(key); got != want {
			t.Errorf("key %s: %q, want %q", key, got, want)
		}
	}
}

// liar answers the token exchange with environment TEST whatever the key,
// a JWT whose claims say claimEnv, /cards/config with configEnv, and
// counts every other request that reaches it.
type liar struct {
	claimEnv, configEnv string
	writes              atomic.Int64
}

func (l *liar) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/auth/token"):
		tok := jwtWith(map[string]any{"env": l.claimEnv})
		_, _ = io.WriteString(w, `{"status":"success","data":{"accessToken":"`+tok+`","tokenType":"Bearer","expiresIn":900,"environment":"TEST","merchantId":"m"}}`)
	case r.URL.Path == "/v1/merchant/cards/config":
		_, _ = io.WriteString(w, `{"status":"success","data":{"environment":"`+l.configEnv+`"}}`)
	default:
		if r.Method != http.MethodGet {
			l.writes.Add(1)
		}
		_, _ = io.WriteString(w, `{"status":"success","data":{}}`)
	}
}

func exchangeThrough(t *testing.T, hc *http.Client, base, key string) string {
	t.Helper()
	resp, err := hc.Post(base+"/auth/token", "application/json", strings.NewReader(`{"merchantId":"m","secretKey":"`+key+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	return ans.Data.AccessToken
}

func post(hc *http.Client, url, auth string) error {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
	req.Header.Set("Authorization", auth)
	resp, err := hc.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func TestGuardRefusesWritesWithLiveCredentials(t *testing.T) {
	l := &liar{claimEnv: "LIVE", configEnv: "LIVE"}
	srv := httptest.NewServer(l)
	defer srv.Close()
	base := srv.URL + "/v1/merchant"
	hc, g := Wrap(&http.Client{}, false)
	g.LiveSecret("configured-live-key")

	refused := func(what, auth string) {
		t.Helper()
		if err := post(hc, base+"/cards/customers", auth); !errors.Is(err, ErrLiveWrite) {
			t.Errorf("%s: want the write refused, got %v", what, err)
		}
	}
	refused("a token for an sk_live_ key the answer calls TEST", "Bearer "+exchangeThrough(t, hc, base, "sk_live_lying"))
	refused("a token for a configured LIVE key", "Bearer "+exchangeThrough(t, hc, base, "configured-live-key"))
	refused("a LIVE key in the bearer position", "Bearer sk_live_abc")
	refused("a LIVE key in Basic credentials", "Basic "+base64.StdEncoding.EncodeToString([]byte("m:configured-live-key")))
	refused("a JWT whose claims say LIVE, never exchanged here", "Bearer "+jwtWith(map[string]any{"env": "LIVE"}))
	if n := l.writes.Load(); n != 0 {
		t.Fatalf("%d writes reached the target", n)
	}

	// TEST everywhere: the write passes; reads always pass.
	l.claimEnv = "TEST"
	if err := post(hc, base+"/cards/customers", "Bearer "+exchangeThrough(t, hc, base, "sk_test_honest")); err != nil {
		t.Fatalf("a TEST write was refused: %v", err)
	}
	if resp, err := hc.Get(base + "/cards"); err != nil {
		t.Fatalf("a read was refused: %v", err)
	} else {
		resp.Body.Close()
	}
	if n := l.writes.Load(); n != 1 {
		t.Fatalf("want the one TEST write through, got %d", n)
	}

	// With consent nothing is refused.
	allowed, _ := Wrap(&http.Client{}, true)
	if err := post(allowed, base+"/cards", "Bearer sk_live_abc"); err != nil {
		t.Fatalf("--allow-live: %v", err)
	}
}

func TestCheckAsksTheConfiguration(t *testing.T) {
	l := &liar{claimEnv: "TEST", configEnv: "LIVE"}
	srv := httptest.NewServer(l)
	defer srv.Close()
	base := srv.URL + "/v1/merchant"
	tok := exchangeThrough(t, &http.Client{}, base, "plainkey")
	v := Check(context.Background(), &http.Client{}, base, "plainkey", "TEST", tok)
	if !v.Live || v.Signals.Config != "LIVE" || !strings.Contains(v.Disagreement, "GET /cards/config says LIVE") {
		t.Fatalf("want LIVE from /cards/config, got %+v", v)
	}
	l.configEnv = "TEST"
	if v := Check(context.Background(), &http.Client{}, base, "plainkey", "TEST", tok); v.Live {
		t.Fatalf("every signal says TEST, got %+v", v)
	}
}
