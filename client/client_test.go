package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/redact"
)

const testJWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXIifQ.c2lnbmF0dXJlX29mX3Rlc3Q"

func tokenServer(t *testing.T, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var tokens atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/merchant/auth/token" {
			n := tokens.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{
				"accessToken": testJWT + string(rune('a'+n)), "tokenType": "Bearer", "expiresIn": 900, "environment": "TEST", "merchantId": "mer"}})
			return
		}
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &tokens
}

func newTestClient(base string, rec *Recorder) *Client {
	anon := New(Options{BaseURL: base + "/v1/merchant", Recorder: func() *Recorder { return rec }})
	ts := NewTokenSource(anon, "mer", "sk_test_supersecret123")
	return New(Options{BaseURL: base + "/v1/merchant", Tokens: ts, Recorder: func() *Recorder { return rec }, MaxWait: 5 * time.Second})
}

func TestRetriesOn429HonouringRetryAfter(t *testing.T) {
	var calls atomic.Int32
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	rec := NewRecorder()
	c := newTestClient(srv.URL, rec)
	resp, err := c.Get(context.Background(), "/cards", nil)
	if err != nil || resp.Status != 200 {
		t.Fatalf("got %v %v", resp, err)
	}
	if calls.Load() != 3 {
		t.Fatalf("want 3 calls, got %d", calls.Load())
	}
	// Raw clients see the 429.
	calls.Store(0)
	resp, _ = c.Raw().Get(context.Background(), "/cards", nil)
	if resp.Status != http.StatusTooManyRequests {
		t.Fatalf("raw client: want 429, got %d", resp.Status)
	}
}

func TestRefreshesTokenOnceOn401(t *testing.T) {
	var calls atomic.Int32
	srv, tokens := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	})
	c := newTestClient(srv.URL, NewRecorder())
	resp, err := c.Get(context.Background(), "/cards", nil)
	if err != nil || resp.Status != 200 || tokens.Load() != 2 {
		t.Fatalf("status %v err %v tokens %d", resp.Status, err, tokens.Load())
	}
	calls.Store(0)
	resp, _ = c.RawAuth().Get(context.Background(), "/cards", nil)
	if resp.Status != http.StatusUnauthorized {
		t.Fatalf("RawAuth: want 401, got %d", resp.Status)
	}
}

// A raw client (every 429 an answer) still renews a token the target counts
// as expired: a rate-limit burst after the target's clock moved on met 401s
// only, and read them as "no 429".
func TestRawClientRefreshesTokenOn401(t *testing.T) {
	var calls atomic.Int32
	srv, tokens := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 2 { // the second call: the cached token has expired
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := newTestClient(srv.URL, NewRecorder())
	ctx := context.Background()
	if resp, err := c.Raw().Get(ctx, "/cards", nil); err != nil || resp.Status != http.StatusTooManyRequests {
		t.Fatalf("first raw call: %v %v", resp, err)
	}
	resp, err := c.Raw().Get(ctx, "/cards", nil)
	if err != nil || resp.Status != http.StatusTooManyRequests || tokens.Load() != 2 || calls.Load() != 3 {
		t.Fatalf("raw call after a 401: status %v err %v, %d tokens, %d calls; want 429 after one renewal", resp.Status, err, tokens.Load(), calls.Load())
	}
	// RawAuth still reports the 401 itself.
	calls.Store(1)
	if resp, _ := c.Raw().RawAuth().Get(ctx, "/cards", nil); resp.Status != http.StatusUnauthorized {
		t.Fatalf("Raw().RawAuth(): want 401, got %d", resp.Status)
	}
}

func TestRecordsRedactedExchangesAndCurl(t *testing.T) {
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"data":{"cardNumber":"4111 1111 1111 1111","pan":"4111 1111 1111 1111","cvv":"123"}}`))
	})
	rec := NewRecorder()
	c := newTestClient(srv.URL, rec)
	if _, err := c.Get(context.Background(), "/cards/crd_1/secure", nil); err != nil {
		t.Fatal(err)
	}
	all := ""
	for _, e := range rec.Exchanges() {
		all += e.String()
	}
	for _, secret := range []string{"sk_test_supersecret123", "4111 1111 1111 1111", "4111111111111111", `"cvv":"123"`, testJWT} {
		if strings.Contains(all, secret) {
			t.Errorf("recorded exchanges contain %q:\n%s", secret, all)
		}
	}
	if !strings.Contains(all, `$MPH_SECRET_KEY`) || !strings.Contains(all, `Bearer $TOKEN`) {
		t.Errorf("curl lines should use $MPH_SECRET_KEY and $TOKEN:\n%s", all)
	}
	if !strings.Contains(all, "411111******1111") {
		t.Errorf("PAN should keep first 6 / last 4:\n%s", all)
	}
}

func TestNetErrorHasNoAnswer(t *testing.T) {
	c := New(Options{BaseURL: "http://127.0.0.1:1/v1/merchant", Timeout: time.Second})
	_, err := c.Get(context.Background(), "/cards", nil)
	if !IsNetError(err) {
		t.Fatalf("want a NetError, got %v", err)
	}
}

// An exchange is redacted when first shown, not when recorded, yet what its
// answer's secret members hold is masked in free text from the moment it
// arrives (a failure message quoting a voucher code before any exchange is
// shown), and a large answer is redacted at once so that no spec keeps
// megabytes of raw bodies.
func TestExchangesRedactWhenShownAndLearnWhenRecorded(t *testing.T) {
	const voucher = "VCH-7Q2M-94XK-LL3Z-0P8D"
	big := strings.Repeat("x", eagerAbove)
	srv, _ := tokenServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/merchant/big" {
			_, _ = w.Write([]byte(`{"data":{"note":"` + big + `","cvv":"987"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"data":{"voucherCode":"` + voucher + `"}}`))
	})
	rec := NewRecorder()
	c := newTestClient(srv.URL, rec)
	if _, err := c.Get(context.Background(), "/gift-cards/ord_1", nil); err != nil {
		t.Fatal(err)
	}
	ex := rec.Last()
	if ex.raw.respBody == nil {
		t.Fatal("a small answer was redacted when recorded: the run pays for exchanges nobody shows")
	}
	if msg := redact.Text("expected the order to hold " + voucher); strings.Contains(msg, voucher) {
		t.Fatalf("the voucher code was not learned when its answer was recorded: %s", msg)
	}
	if body := ex.ResponseBody(); strings.Contains(body, voucher) || !strings.Contains(body, "voucherCode") {
		t.Fatalf("the shown body is not the redacted answer: %s", body)
	}
	if ex.raw.respBody != nil || ex.raw.reqHeader != nil {
		t.Fatal("the raw forms are kept after the exchange was shown")
	}
	if _, err := c.Get(context.Background(), "/big", nil); err != nil {
		t.Fatal(err)
	}
	ex = rec.Last()
	if ex.raw.respBody != nil || ex.raw.reqHeader != nil {
		t.Fatalf("an answer over %d bytes is kept raw", eagerAbove)
	}
	if body := ex.ResponseBody(); strings.Contains(body, "987") || !strings.Contains(body, "[cut: ") {
		t.Fatalf("a large answer is not redacted and cut: %.200s", body)
	}
}
