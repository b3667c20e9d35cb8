package sandbox

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/sandbox/controls"
)

// The merchant API and the test controls are routed by http.ServeMux
// method-and-wildcard patterns. Two answers stay the API's own: a path no
// pattern matches and a known path with another method both answer 404
// "Cannot METHOD path" in the error envelope (the mux would answer 405 or a
// text 404), so each mux has a catch-all "/" and every handler checks its
// method (a GET pattern also matches HEAD).

// apiRoutes are the merchant API endpoints, below the base path.
var apiRoutes = []struct {
	pattern string
	rt      route
}{
	{"POST /auth/token", rToken},
	{"GET /cards/config", rConfig},
	{"POST /cards/customers", rCustCreate},
	{"GET /cards/customers", rCustList},
	{"GET /cards", rCardList},
	{"POST /cards", rCardCreate},
	{"GET /cards/{id}", rCardGet},
	{"GET /cards/{id}/secure", rCardSecure},
	{"POST /cards/{id}/withdraw", rWithdraw},
	{"PUT /cards/{id}/spend-limits", rSpendLimits},
	{"PATCH /cards/{id}/status", rStatus},
	{"PATCH /cards/{id}/contact", rContact},
	{"POST /cards/{id}/simulate-webhook", rSimulate},
	{"GET /gift-cards/quote", rGiftQuote},
	{"POST /gift-cards/purchase", rGiftPurchase},
	{"GET /gift-cards/verify/{id}", rGiftVerify},
	{"GET /gift-cards/transactions/{id}", rGiftLookup},
	{"GET /betting/quote", rBetQuote},
}

// buildRoutes registers every endpoint under the base path and the test
// controls (sandbox/controls) under theirs.
func (s *Server) buildRoutes() {
	apiUnknown := func(w http.ResponseWriter, r *http.Request) { s.serveAPI(w, r, nil) }
	api := http.NewServeMux()
	api.HandleFunc("/", apiUnknown)
	for _, a := range apiRoutes {
		method, path, _ := strings.Cut(a.pattern, " ")
		rt := a.rt
		rt.method = method
		api.HandleFunc(method+" "+s.base+path, func(w http.ResponseWriter, r *http.Request) {
			if r.Method != rt.method {
				s.serveAPI(w, r, nil)
				return
			}
			s.serveAPI(w, r, &rt)
		})
	}
	ctlUnknown := func(w http.ResponseWriter, r *http.Request) {
		q := s.out.Req(w, r, s.clk.Now())
		q.NoRoute()
	}
	s.api, s.controls = literalPaths(api, apiUnknown), literalPaths(controls.New(s.controlsHost()), ctlUnknown)
}

// controlsHost is what the test controls act on.
func (s *Server) controlsHost() controls.Host {
	return controls.Host{
		Base: s.base, Instance: s.inst, AdminKey: s.opts.AdminKey, Faults: s.opts.Faults,
		Clock: s.clk, Latency: &s.latency, Pending: &s.events.Pending, Limits: s.limits,
		World: s.world.Load, Reset: s.Reset, Out: s.out,
		Transaction: s.ctlTransaction, Settle: s.ctlSettle,
	}
}

// literalPaths serves h without ServeMux's path canonicalisation, which
// would redirect: a path with an empty segment (a trailing or doubled
// slash) is unknown, and "." and ".." are plain segments (an identifier).
// Segments are matched decoded, as r.URL.Path holds them: %2F is a slash.
func literalPaths(mux *http.ServeMux, unknown http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		raw, ok := routingPath(r.URL.Path)
		if !ok {
			unknown(w, r)
			return
		}
		r2, u := *r, *r.URL
		u.RawPath = raw
		r2.URL = &u
		mux.ServeHTTP(w, &r2)
	}
}

// routingPath escapes each segment of p so that the mux sees exactly p's
// segments; ok is false when a segment is empty.
func routingPath(p string) (string, bool) {
	if p == "" || p[0] != '/' {
		return "", false
	}
	segs := strings.Split(p[1:], "/")
	for i, seg := range segs {
		switch seg {
		case "":
			return "", false
		case ".":
			segs[i] = "%2E"
		case "..":
			segs[i] = "%2E%2E"
		default:
			segs[i] = url.PathEscape(seg)
		}
	}
	return "/" + strings.Join(segs, "/"), true
}
