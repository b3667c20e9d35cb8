package proxy_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/proxy"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/sandbox"
	_ "github.com/merchant-harness/mph/suites" // the specs register themselves
	"github.com/merchant-harness/mph/suites/framework"
)

// conformThroughProxy runs the whole conformance suite against the
// embedded sandbox through the proxy (the test controls go direct) and
// returns the proxy's snapshot and every API exchange it saw.
func conformThroughProxy(t *testing.T) (session.Snapshot, []proxy.Exchange, string) {
	t.Helper()
	ctx := context.Background()
	sbx, err := sandbox.Start(ctx, "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sbx.Close()
	var mu sync.Mutex
	var seen []proxy.Exchange
	log := &syncBuf{}
	px, err := proxy.New(proxy.Options{Upstream: sbx.BaseURL, Log: log, Observe: func(e proxy.Exchange) {
		mu.Lock()
		seen = append(seen, e)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(px)
	defer srv.Close()
	cfg := embedded.FromSandbox(sbx, nil)
	cfg.BaseURL = srv.URL + px.BasePath()
	res, err := framework.Run(ctx, cfg, framework.RunOptions{NoColor: true})
	if err != nil {
		t.Fatalf("conform run: %v", err)
	}
	if !res.Passed || !res.Summary.OK() {
		t.Fatalf("conform run through the proxy failed: %d failed, %d harness errors", res.Summary.Failed, res.Summary.HarnessErrors)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := px.Close(cctx); err != nil {
		t.Fatal(err)
	}
	return px.Tally().Snapshot(), seen, log.String()
}
