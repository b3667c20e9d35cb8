package framework

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/target"
)

// LIVE consent in the suites. A request that creates, moves money or changes
// state with LIVE credentials (a LIVE primary, or MPH_LIVE_* /
// MPH_LIVE_LOWKYB_*) needs --allow-live (MPH_ALLOW_LIVE=1), whatever the
// sandbox controls say. Specs labelled destructive skip without it (see
// ConformanceIt); as a last line of defence, the clients of LIVE credentials
// refuse to send anything but reads (GET, HEAD, OPTIONS) and the token
// exchange. The embedded sandbox (started by mph in process) holds no money
// in any environment and is exempt.

// liveWritesAllowed reports whether LIVE credentials may write.
func (x *harness) liveWritesAllowed() bool { return x.cfg.AllowLive || x.cfg.Embedded }

// isLive reports whether c are LIVE credentials: the configured LIVE ones, or
// the primary when its token states LIVE.
func (x *harness) isLive(c target.Credentials) bool {
	for _, l := range []*target.Credentials{x.cfg.LiveTier2, x.cfg.LiveLowKYB} {
		if l != nil && *l == c {
			return true
		}
	}
	return c == x.cfg.Primary && x.facts.Environment == "LIVE"
}

// guardLive returns hc, or a copy refusing LIVE writes when c are LIVE and
// writes are not allowed.
func (x *harness) guardLive(hc *http.Client, c target.Credentials) *http.Client {
	if x.liveWritesAllowed() || !x.isLive(c) {
		return hc
	}
	g := *hc
	next := hc.Transport
	if next == nil { // httpclient.New always sets one
		next = httpclient.NewTransport(httpclient.Options{Timeout: hc.Timeout})
	}
	g.Transport = liveWriteGuard{next: next}
	return &g
}

// errLiveWrite is wrapped by the guard's refusal; Must turns it into a skip.
var errLiveWrite = errors.New("refused: this request would write with LIVE credentials; pass --allow-live (MPH_ALLOW_LIVE=1) to allow it")

// liveWriteGuard refuses every request but reads and the token exchange.
type liveWriteGuard struct{ next http.RoundTripper }

func (g liveWriteGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	switch {
	case r.Method == http.MethodGet, r.Method == http.MethodHead, r.Method == http.MethodOptions:
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/auth/token"):
	default:
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.URL.Path, errLiveWrite)
	}
	return g.next.RoundTrip(r)
}
