package proxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/sandbox"
)

// rig is a sandbox behind a proxy, sharing one clock.
type rig struct {
	t     *testing.T
	clk   *clock.Offset
	sbx   *sandbox.Running
	px    *proxy.Proxy
	srv   *httptest.Server
	base  string // the proxy's merchant root
	log   *syncBuf
	token string
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newRig(t *testing.T, opts sandbox.Options, popts proxy.Options) *rig {
	t.Helper()
	clk := clock.NewOffset(nil)
	opts.Clock = clk
	sbx, err := sandbox.Start(context.Background(), "127.0.0.1:0", opts)
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	t.Cleanup(func() { _ = sbx.Close() })
	log := &syncBuf{}
	popts.Upstream, popts.Clock, popts.Log = sbx.BaseURL, clk, log
	px, err := proxy.New(popts)
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	srv := httptest.NewServer(px)
	t.Cleanup(srv.Close)
	return &rig{t: t, clk: clk, sbx: sbx, px: px, srv: srv, base: srv.URL + px.BasePath(), log: log}
}

// finish closes the proxy and returns its snapshot.
func (r *rig) finish() session.Snapshot {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.px.Close(ctx); err != nil {
		r.t.Fatalf("close: %v", err)
	}
	return r.px.Tally().Snapshot()
}

type call struct {
	method, path, body string
	header             map[string]string // "" value deletes
	noAuth             bool
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// do sends one request through the proxy with the rig's token.
func (r *rig) do(c call) answer {
	r.t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, r.base+c.path, body)
	if err != nil {
		r.t.Fatal(err)
	}
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" && !c.noAuth {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, v := range c.header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return answer{status: resp.StatusCode, header: resp.Header, body: m}
}

const (
	demoMerchant = "mer_demo_alpha"
	demoKey      = "sk_test_alpha_7f3a9c2e51d84b06"
)

// login exchanges the demo credentials and keeps the token.
func (r *rig) login() string {
	r.t.Helper()
	a := r.do(call{method: "POST", path: "/auth/token", noAuth: true,
		body: `{"merchantId":"` + demoMerchant + `","secretKey":"` + demoKey + `"}`})
	if a.status != 200 {
		r.t.Fatalf("token: status %d", a.status)
	}
	data, _ := a.body["data"].(map[string]any)
	r.token, _ = data["accessToken"].(string)
	return r.token
}

// countBy returns violations per rule of a side.
func countBy(s session.Snapshot, side session.Side) map[string]int64 {
	out := map[string]int64{}
	for _, r := range s.Rules {
		if r.Side == side && r.Violations > 0 {
			out[r.Rule] = r.Violations
		}
	}
	return out
}
