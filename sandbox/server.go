// Package sandbox is the reference implementation of the Merchant Payments API
// v1 (../shared/merchant-payments-api.md) with every "not shown" choice fixed
// by docs/sandbox.md, plus test controls under /_sandbox. It runs in-process
// (Start) as the embedded default target of the suites and the load driver,
// or standalone through `mph sandbox`.
package sandbox

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/controls"
	"github.com/merchant-harness/mph/sandbox/customers"
	"github.com/merchant-harness/mph/sandbox/echo"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/gifts"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/rewrite"
	"github.com/merchant-harness/mph/sandbox/settings"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/token"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/webhook"
)

// Server is the sandbox: an http.Handler serving the merchant API under the
// base path and the test controls under /_sandbox.
type Server struct {
	opts      Options
	base      string
	clk       *clock.Offset
	log       *slog.Logger
	faults    fault.Set
	variants  variant.Set
	rewrite   bool // some answer is rewritten after the handler (settings, faults)
	rewriter  *rewrite.Rewriter
	out       *answer.Writer       // the answers' envelopes and the request bodies
	set       *settings.Settings   // the settings' hooks
	gifts     *gifts.Endpoints     // the gift cards and quotes
	customers *customers.Endpoints // the cardholders
	jwt       *token.Issuer
	limits    *ratelimit.Limiter
	events    *webhook.Dispatcher // the card events sent to the merchants' URLs
	api       http.Handler        // merchant API routes (routes.go)
	controls  http.Handler        // test control routes (sandbox/controls)
	world     atomic.Pointer[state.World]
	latency   atomic.Int64 // nanoseconds added to every merchant API answer
	startRL   map[string]ratelimit.Limit
	inst      string // instance id, see InstanceHeader
}

// New builds a Server from opts; it fails on invalid options or unknown faults.
func New(opts Options) (*Server, error) {
	if err := opts.normalize(); err != nil {
		return nil, err
	}
	fs, err := fault.Build(opts.Faults)
	if err != nil {
		return nil, err
	}
	vs, err := variant.Build(opts.Variants)
	if err != nil {
		return nil, err
	}
	if vs.On(variant.BaseNested) && opts.BasePath == DefaultBasePath {
		opts.BasePath = nestedBasePath
	}
	s := &Server{
		opts:     opts,
		base:     opts.BasePath,
		log:      opts.Logger,
		faults:   fs,
		variants: vs,
		rewrite:  vs.Rewrites() || fs.Rewrites(),
		set:      settings.New(vs),
	}
	if o, ok := opts.Clock.(*clock.Offset); ok {
		s.clk = o
	} else {
		s.clk = clock.NewOffset(opts.Clock)
	}
	s.rewriter = rewrite.New(vs, fs, s.base, s.clk)
	s.out = answer.New(fs, vs, s.base)
	s.gifts = gifts.New(fs, s.set)
	s.customers = customers.New(fs, vs, s.set)
	s.jwt = token.New(opts.JWTSecret, s.clk, vs.On(variant.TokenJWE))
	s.inst = newInstanceID()
	s.startRL = opts.RateLimits
	s.limits = ratelimit.New(opts.RateLimits)
	s.limits.ApplyTopology(opts.RateLimitTopology)
	s.events = webhook.NewDispatcher(webhook.NewSender(vs), fs, vs, s.clk, s.log)
	s.world.Store(s.newWorld())
	s.buildRoutes()
	return s, nil
}

// Reset restores the seeded state, clock offset 0, latency 0 and the start-up
// rate limits, as POST /_sandbox/reset does.
func (s *Server) Reset() {
	s.clk.Reset()
	s.latency.Store(0)
	s.limits.Set(s.startRL)
	s.world.Store(s.newWorld())
}

// BasePath returns the merchant API base path, e.g. "/v1/merchant".
func (s *Server) BasePath() string { return s.base }

// Clock returns the sandbox clock (the one the clock control advances).
func (s *Server) Clock() *clock.Offset { return s.clk }

// AdminKey returns the key the test controls require.
func (s *Server) AdminKey() string { return s.opts.AdminKey }

// ServeHTTP dispatches to the merchant API, the test controls, or 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.EchoRequests && !echo.Inside(r) {
		echo.Serve(s, w, r, answer.MaxBody) // test-only leaky target
		return
	}
	defer func() {
		if v := recover(); v != nil {
			// A bug, never a client's fault: answer 500 so the fuzz test and
			// the suites see it, and keep the process alive.
			s.log.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "panic", v)
			q := s.out.Req(w, r, s.clk.Now())
			q.Error(http.StatusInternalServerError, "Internal server error")
		}
	}()
	w.Header().Set(InstanceHeader, s.inst)
	p := r.URL.Path
	switch {
	case (p == s.base || strings.HasPrefix(p, s.base+"/")) && s.rewrite:
		s.serveVariantAPI(w, r, p[len(s.base):])
	case p == s.base || strings.HasPrefix(p, s.base+"/"):
		if s.faults.On(fault.JSONAsTextPlain) {
			w = textPlainWriter{w}
		}
		s.api.ServeHTTP(w, r)
	case !s.opts.HideControls && (p == controls.Prefix || strings.HasPrefix(p, controls.Prefix+"/")):
		s.controls.ServeHTTP(w, r)
	default:
		q := s.out.Req(w, r, s.clk.Now())
		q.NoRoute()
	}
}

// clientIP is the caller's address from r.RemoteAddr (no proxy headers: the
// whitelist must not be spoofable by a header).
func clientIP(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, err2 := netip.ParseAddr(r.RemoteAddr)
		if err2 != nil {
			return netip.Addr{}, false
		}
		return a.Unmap(), true
	}
	return ap.Addr().Unmap(), true
}

// nestedBasePath is the merchant root under base-path-behind-prefix.
const nestedBasePath = "/payments" + DefaultBasePath
