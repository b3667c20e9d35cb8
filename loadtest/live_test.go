package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/liveguard"
	"github.com/merchant-harness/mph/sandbox"
)

// spy serves an in-process sandbox and counts what reaches it.
type spy struct {
	srv      *httptest.Server
	base     string
	writes   atomic.Int64  // requests other than GET and POST /auth/token
	issued   atomic.Int64  // POST /cards answered 2xx
	withdraw atomic.Int64  // POST .../withdraw answered 2xx
	onIssue  func(n int64) // called before the n-th POST /cards reaches the sandbox
}

func newSpy(t *testing.T) *spy {
	t.Helper()
	s, err := sandbox.New(sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	sp := &spy{}
	var issuing atomic.Int64
	sp.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		write := r.Method != http.MethodGet && !strings.HasSuffix(r.URL.Path, "/auth/token")
		if write {
			sp.writes.Add(1)
		}
		issue := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/cards")
		if issue && sp.onIssue != nil {
			sp.onIssue(issuing.Add(1))
		}
		rw := &codeWriter{ResponseWriter: w}
		s.ServeHTTP(rw, r)
		ok := rw.code/100 == 2
		switch {
		case issue && ok:
			sp.issued.Add(1)
		case strings.HasSuffix(r.URL.Path, "/withdraw") && ok:
			sp.withdraw.Add(1)
		}
	}))
	t.Cleanup(sp.srv.Close)
	sp.base = sp.srv.URL + s.BasePath()
	return sp
}

type codeWriter struct {
	http.ResponseWriter
	code int
}

func (w *codeWriter) WriteHeader(c int) { w.code = c; w.ResponseWriter.WriteHeader(c) }
func (w *codeWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func demoCred(live bool) Credential {
	m := sandbox.DemoMerchants()[0]
	if live {
		return Credential{MerchantID: m.ID, SecretKey: m.LiveKey}
	}
	return Credential{MerchantID: m.ID, SecretKey: m.TestKey}
}

// A LIVE token refuses every scenario that writes before its first write,
// unless --allow-live; reads (token, list, secure on given card ids) run.
func TestLiveConsentBeforeAnyWrite(t *testing.T) {
	cases := []struct {
		name      string
		live      bool
		allow     bool
		scenario  string
		cardIDs   []string
		wantRefus bool
		embedded  bool
	}{
		{"LIVE secure refused", true, false, "secure", nil, true, false},
		{"LIVE mixed refused", true, false, "mixed", nil, true, false},
		{"LIVE secure allowed", true, true, "secure", nil, false, false},
		{"LIVE secure on given cards is a read", true, false, "secure", []string{"crd_given"}, false, false},
		{"LIVE list is a read", true, false, "list", nil, false, false},
		{"LIVE token is a read", true, false, "token", nil, false, false},
		{"TEST secure", false, false, "secure", nil, false, false},
		{"LIVE secure on the embedded sandbox", true, false, "secure", nil, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := newSpy(t)
			tg := &Target{BaseURL: sp.base, Creds: []Credential{demoCred(c.live)}, Timeout: 5 * time.Second,
				AllowLive: c.allow, Embedded: c.embedded, Setup: DefaultSetupProfile()}
			s, err := Prepare(context.Background(), tg, ScenarioOptions{Name: c.scenario, PoolSize: 2, CardIDs: c.cardIDs})
			if s != nil {
				defer s.Close(context.Background())
			}
			var lr *LiveRefusal
			if c.wantRefus {
				if !errors.Is(err, ErrLiveRefused) || !errors.As(err, &lr) || lr.Environment != "LIVE" {
					t.Fatalf("want a LIVE refusal, got %v", err)
				}
				want := "the credentials are LIVE (the secret key's prefix says LIVE, the token answer says LIVE, the token's JWT claim says LIVE, GET /cards/config says LIVE), and scenario " + c.scenario + " issues and funds cards (real money on LIVE): " +
					"pass --allow-live to allow it, or give --card-ids of existing cards so that nothing is written"
				if err.Error() != want {
					t.Fatalf("refusal %q, want %q", err, want)
				}
				if n := sp.writes.Load(); n != 0 {
					t.Fatalf("%d writes reached the target before the refusal", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Prepare: %v", err)
			}
			if c.cardIDs != nil || c.scenario == "list" || c.scenario == "token" {
				if n := sp.writes.Load(); n != 0 {
					t.Fatalf("read-only scenario wrote %d times", n)
				}
			} else if sp.issued.Load() != 2 {
				t.Fatalf("issued %d cards, want 2", sp.issued.Load())
			}
		})
	}
}

// A token answer without an environment is not proof of TEST.
func TestLiveConsentUnknownEnvironment(t *testing.T) {
	if err := checkLiveConsent(liveguard.Decide(liveguard.Signals{}), "secure", false); !errors.Is(err, ErrLiveRefused) {
		t.Fatalf("no environment: %v", err)
	}
	if err := checkLiveConsent(liveguard.Decide(liveguard.Signals{Token: "TEST"}), "secure", false); err != nil {
		t.Fatal(err)
	}
	if err := checkLiveConsent(liveguard.Decide(liveguard.Signals{Token: "LIVE"}), "secure", true); err != nil {
		t.Fatal(err)
	}
}

// A target answering TEST at the token exchange for an sk_live_ key (its
// JWT and /cards/config still say LIVE) gets no write: every signal counts.
func TestLiveConsentTrustsNoSingleSignal(t *testing.T) {
	sp := newSpy(t)
	lying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		sp.srv.Config.Handler.ServeHTTP(rec, r)
		body := rec.Body.String()
		if strings.HasSuffix(r.URL.Path, "/auth/token") {
			body = strings.Replace(body, `"environment":"LIVE"`, `"environment":"TEST"`, 1)
		}
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write([]byte(body))
	}))
	defer lying.Close()
	tg := &Target{BaseURL: lying.URL + strings.TrimPrefix(sp.base, sp.srv.URL), Creds: []Credential{demoCred(true)}, Timeout: 5 * time.Second, Setup: DefaultSetupProfile()}
	s, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "secure", PoolSize: 2})
	if s != nil {
		defer s.Close(context.Background())
	}
	if !errors.Is(err, ErrLiveRefused) || !strings.Contains(err.Error(), "the token answer says TEST") {
		t.Fatalf("want a LIVE refusal naming the disagreement, got %v", err)
	}
	if n := sp.writes.Load(); n != 0 {
		t.Fatalf("%d writes reached the target", n)
	}
	// With consent the setup writes, and the contradiction is a note of the report.
	tg.AllowLive = true
	s2, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "secure", PoolSize: 1})
	if err != nil {
		t.Fatalf("--allow-live: %v", err)
	}
	defer s2.Close(context.Background())
	if !strings.Contains(strings.Join(s2.Notes, "\n"), "contradicts itself about the environment") {
		t.Fatalf("the contradiction is not among the notes: %q", s2.Notes)
	}
}

// Ctrl-C during setup: the issuance in flight completes, every card funded so
// far is swept back to the vault, and the error says so.
func TestInterruptedSetupSweepsWhatItFunded(t *testing.T) {
	sp := newSpy(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sp.onIssue = func(n int64) {
		if n == 3 {
			cancel()
		}
	}
	tg := &Target{BaseURL: sp.base, Creds: []Credential{demoCred(false)}, Timeout: 5 * time.Second, Setup: DefaultSetupProfile()}
	s, err := Prepare(ctx, tg, ScenarioOptions{Name: "secure", PoolSize: 10, Teardown: false})
	if s != nil {
		t.Fatal("Prepare returned a scenario after an interrupted setup")
	}
	var se *SetupError
	if !errors.As(err, &se) || !se.Interrupted {
		t.Fatalf("want an interrupted SetupError, got %v", err)
	}
	if got := sp.issued.Load(); got != 3 {
		t.Fatalf("issued %d cards, want 3 (the in-flight one completes)", got)
	}
	if got := sp.withdraw.Load(); got != 3 {
		t.Fatalf("swept %d cards, want 3", got)
	}
	if !strings.Contains(strings.Join(se.Notes, "\n"), "swept the balance of 3 of 3 cards") {
		t.Fatalf("notes: %q", se.Notes)
	}
	// Every card left has a zero balance.
	tok := tokenFor(t, sp.base, demoCred(false))
	req, _ := http.NewRequest(http.MethodGet, sp.base+"/cards?limit=50", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID      string  `json:"id"`
			Balance float64 `json:"balance"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Data {
		if c.Balance != 0 {
			t.Errorf("card %s kept %.2f USD", c.ID, c.Balance)
		}
	}
	if len(list.Data) < 3 {
		t.Fatalf("%d cards listed", len(list.Data))
	}
}

func tokenFor(t *testing.T, base string, c Credential) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"merchantId": c.MerchantID, "secretKey": c.SecretKey})
	resp, err := http.Post(base+"/auth/token", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data struct {
			AccessToken string `json:"accessToken"`
		} `json:"data"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&env)
	return env.Data.AccessToken
}
