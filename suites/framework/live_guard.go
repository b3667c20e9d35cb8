package framework

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/liveguard"
)

// LIVE consent in the suites. A request that creates, moves money or changes
// state with LIVE credentials needs --allow-live (MPH_ALLOW_LIVE=1), whatever
// the target or its sandbox controls say. The primary credentials are LIVE
// when any signal says so (pre-flight: the key's prefix, the token answer,
// its JWT claims, /cards/config). Specs labelled destructive skip without
// consent (see ConformanceIt); as the last line of defence every client of
// the process, the anonymous one included, goes through one liveguard.Guard
// that refuses any write carrying a LIVE credential (a token it saw issued
// to LIVE credentials, a token whose claims say LIVE, a LIVE key), and the
// clients of LIVE credentials refuse every write whatever their token. The
// embedded sandbox (started by mph in process) holds no money in any
// environment and is exempt.

// liveWritesAllowed reports whether LIVE credentials may write.
func (x *harness) liveWritesAllowed() bool { return x.cfg.AllowLive || x.cfg.Embedded }

// isLive reports whether c are LIVE credentials: the configured LIVE ones, or
// the primary when pre-flight found it LIVE.
func (x *harness) isLive(c config.Credentials) bool {
	for _, l := range []*config.Credentials{x.cfg.LiveTier2, x.cfg.LiveLowKYB} {
		if l != nil && *l == c {
			return true
		}
	}
	return c == x.cfg.Primary && x.facts.Live
}

// tokenGuard is the process's guard, shared by every client so that a
// token learned at any exchange is known to all.
func (x *harness) tokenGuard() *liveguard.Guard {
	h.guardMu.Lock()
	defer h.guardMu.Unlock()
	if x.guard == nil {
		x.guard = liveguard.NewGuard(nil, x.liveWritesAllowed())
		for _, l := range []*config.Credentials{x.cfg.LiveTier2, x.cfg.LiveLowKYB} {
			if l != nil {
				x.guard.LiveSecret(l.SecretKey)
			}
		}
		if x.facts.Live {
			x.guard.LiveSecret(x.cfg.Primary.SecretKey)
		}
	}
	return x.guard
}

// guardLive returns hc behind the process's guard, and for LIVE
// credentials c (without consent) behind a guard refusing every write.
func (x *harness) guardLive(hc *http.Client, c *config.Credentials) *http.Client {
	g := x.tokenGuard().Client(hc)
	if x.liveWritesAllowed() || c == nil || !x.isLive(*c) {
		return g
	}
	g.Transport = liveWriteGuard{next: g.Transport}
	return g
}

// AllowLiveHint says how to consent to LIVE writes, in the skip messages
// of the specs refused them.
const AllowLiveHint = "pass --allow-live (" + config.EnvAllowLive + "=1)"

// liveVars names the variables of the LIVE credentials.
const liveVars = config.EnvPrefix + "LIVE_*"

// errLiveWrite is wrapped by the guards' refusals; Must turns it into a skip.
var errLiveWrite = liveguard.ErrLiveWrite

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

// LiveWritesAllowed reports whether this run may write with LIVE
// credentials (--allow-live, or the embedded sandbox).
func LiveWritesAllowed() bool { mustReady(); return h.liveWritesAllowed() }
