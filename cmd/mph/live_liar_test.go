package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// liarFront sits before a sandbox and lies about the environment of LIVE
// credentials: its token answers say TEST and carry a JWT whose claims say
// TEST (swapped back to the sandbox's real token on the way in), and the
// harness's key has no prefix (swapped for the sandbox's sk_live_ key).
// Only GET /cards/config still says LIVE. It counts every write carrying a
// credential (any method but GET, the token exchange excepted) that
// reaches the sandbox.
type liarFront struct {
	srv              *httptest.Server
	plainKey, liveKy string
	writes           atomic.Int64

	mu     sync.Mutex
	tokens map[string]string // fake -> real
}

func newLiarFront(t *testing.T, sandboxOrigin, plainKey, liveKey string) *liarFront {
	t.Helper()
	f := &liarFront{plainKey: plainKey, liveKy: liveKey, tokens: map[string]string{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serve(w, r, sandboxOrigin) }))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *liarFront) serve(w http.ResponseWriter, r *http.Request, origin string) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	body = bytes.ReplaceAll(body, []byte(f.plainKey), []byte(f.liveKy))
	token := strings.HasSuffix(r.URL.Path, "/auth/token")
	// A write without a credential (the 401 specs) spends no one's money.
	if r.Method != http.MethodGet && !token && !strings.HasPrefix(r.URL.Path, "/_sandbox") && r.Header.Get("Authorization") != "" {
		f.writes.Add(1)
	}
	req, _ := http.NewRequestWithContext(r.Context(), r.Method, origin+r.URL.RequestURI(), bytes.NewReader(body))
	req.Header = r.Header.Clone()
	if a, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer "); ok {
		f.mu.Lock()
		if real, ok := f.tokens[a]; ok {
			req.Header.Set("Authorization", "Bearer "+real)
		}
		f.mu.Unlock()
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if token {
		out = f.lie(out)
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}

// lie rewrites a token answer: environment TEST, a token whose claims say TEST.
func (f *liarFront) lie(b []byte) []byte {
	var doc map[string]any
	if json.Unmarshal(b, &doc) != nil {
		return b
	}
	d, _ := doc["data"].(map[string]any)
	real, _ := d["accessToken"].(string)
	if real == "" {
		return b
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	claims, _ := json.Marshal(map[string]any{"env": "TEST", "sub": d["merchantId"], "n": len(f.tokens)})
	fake := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + base64.RawURLEncoding.EncodeToString(claims) + ".c2lnbmF0dXJl"
	f.tokens[fake] = real
	d["accessToken"], d["environment"] = fake, "TEST"
	out, _ := json.Marshal(doc)
	return out
}

// TestLyingTargetGetsNoLiveWrite points every command that can write at a
// target whose token answers and JWTs say TEST for LIVE credentials (only
// /cards/config tells the truth): without --allow-live not one write reaches
// it, and the contradiction is reported.
func TestLyingTargetGetsNoLiveWrite(t *testing.T) {
	bin := mphBinary(t)
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{DisableRateLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	origin, _ := url.Parse(sbx.BaseURL)
	origin.Path = ""
	m := sandbox.DemoMerchants()[0]
	const plainKey = "Kq3Wz8Rt5Yp2LmNx7Vb4"
	f := newLiarFront(t, origin.String(), plainKey, m.LiveKey)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MPH_") {
			env = append(env, kv)
		}
	}
	low := sandbox.DemoMerchants()[1]
	// The LIVE merchants of the KYB and LIVE specs too: the liar says TEST
	// for their tokens as well.
	env = append(env, "MPH_BASE_URL="+f.srv.URL+"/v1/merchant", "MPH_MERCHANT_ID="+m.ID, "MPH_SECRET_KEY="+plainKey,
		"MPH_CONTROLS_URL="+f.srv.URL+"/_sandbox", "MPH_ADMIN_KEY="+sbx.AdminKey,
		"MPH_LIVE_MERCHANT_ID="+m.ID, "MPH_LIVE_SECRET_KEY="+m.LiveKey,
		"MPH_LIVE_LOWKYB_MERCHANT_ID="+low.ID, "MPH_LIVE_LOWKYB_SECRET_KEY="+low.LiveKey)
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		code int
		want string
		args []string
	}{
		// The whole suite: the configuration spec reports the contradiction (exit 1).
		{"conform", 1, "contradicts itself about the environment", []string{"conform", "--no-color", "--out", filepath.Join(dir, "conform"), "--deadline", "2m"}},
		{"load secure", 2, "GET /cards/config says LIVE", []string{"load", "--scenario", "secure", "--rate", "5", "--duration", "1s", "--pool-size", "2", "--quiet", "--out", filepath.Join(dir, "load")}},
		{"load mixed", 2, "GET /cards/config says LIVE", []string{"load", "--scenario", "mixed", "--rate", "5", "--duration", "1s", "--pool-size", "2", "--quiet", "--out", filepath.Join(dir, "mixed")}},
		{"probe", 2, "GET /cards/config says LIVE", []string{"load", "probe-rate-limit", "--scenario", "secure", "--pool-size", "2", "--max-rate", "20", "--quiet", "--out", filepath.Join(dir, "probe")}},
		{"capacity", 2, "GET /cards/config says LIVE", []string{"load", "capacity", "--scenario", "secure", "--pool-size", "2", "--max-rate", "20", "--quiet", "--out", filepath.Join(dir, "capacity")}},
		{"discover", 2, "GET /cards/config says LIVE", []string{"profile", "discover"}},
		{"sweep", 2, "GET /cards/config says LIVE", []string{"sweep", "--run-id", "mphdead01"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runMPH(t, bin, env, 3*time.Minute, c.args...)
			if n := f.writes.Swap(0); n != 0 {
				t.Fatalf("%d writes reached the lying target:\n%s", n, r.out)
			}
			if r.code != c.code || !strings.Contains(r.out, c.want) {
				t.Fatalf("want exit %d saying %q, got %d:\n%s", c.code, c.want, r.code, r.out)
			}
		})
	}
}
