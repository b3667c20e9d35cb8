package sandbox

import (
	"net/http"
	"strings"
	"time"
)

type handler func(s *Server, rc *reqCtx)

// route is a matched merchant API endpoint.
type route struct {
	h      handler
	g      group
	noAuth bool
}

// Routes are matched by hand on path segments: it is allocation-free, and
// lets a known path with a wrong method answer 404 "Cannot ..." as documented
// (http.ServeMux would answer 405).
var (
	rToken        = route{h: (*Server).handleToken, g: grpToken, noAuth: true}
	rConfig       = route{h: (*Server).handleConfig, g: grpRead}
	rCustCreate   = route{h: (*Server).handleCreateCustomer, g: grpWrite}
	rCustList     = route{h: (*Server).handleListCustomers, g: grpRead}
	rCardList     = route{h: (*Server).handleListCards, g: grpRead}
	rCardCreate   = route{h: (*Server).handleIssueCard, g: grpWrite}
	rCardGet      = route{h: (*Server).handleGetCard, g: grpRead}
	rCardSecure   = route{h: (*Server).handleSecure, g: grpSecure}
	rWithdraw     = route{h: (*Server).handleWithdraw, g: grpWrite}
	rSpendLimits  = route{h: (*Server).handleSpendLimits, g: grpWrite}
	rStatus       = route{h: (*Server).handleStatus, g: grpWrite}
	rContact      = route{h: (*Server).handleContact, g: grpWrite}
	rSimulate     = route{h: (*Server).handleSimulateWebhook, g: grpWrite}
	rGiftQuote    = route{h: (*Server).handleGiftQuote, g: grpRead}
	rGiftPurchase = route{h: (*Server).handleGiftPurchase, g: grpWrite}
	rGiftVerify   = route{h: (*Server).handleGiftVerify, g: grpRead}
	rGiftLookup   = route{h: (*Server).handleGiftLookup, g: grpRead}
	rBetQuote     = route{h: (*Server).handleBettingQuote, g: grpRead}
)

// splitPath splits "/a/b/c" into at most len(out) non-empty segments.
func splitPath(p string, out []string) (int, bool) {
	if p == "" || p[0] != '/' {
		return 0, false
	}
	p = p[1:]
	n := 0
	for {
		seg, rest, more := strings.Cut(p, "/")
		if seg == "" || n == len(out) {
			return 0, false
		}
		out[n] = seg
		n++
		if !more {
			return n, true
		}
		p = rest
	}
}

func matchAPI(method, rest string, rc *reqCtx) (route, bool) {
	var seg [4]string
	n, ok := splitPath(rest, seg[:])
	if !ok {
		return route{}, false
	}
	get, post := method == http.MethodGet, method == http.MethodPost
	switch seg[0] {
	case "auth":
		if n == 2 && seg[1] == "token" && post {
			return rToken, true
		}
	case "cards":
		switch n {
		case 1:
			if get {
				return rCardList, true
			}
			if post {
				return rCardCreate, true
			}
		case 2:
			switch seg[1] {
			case "config":
				if get {
					return rConfig, true
				}
				return route{}, false
			case "customers":
				if get {
					return rCustList, true
				}
				if post {
					return rCustCreate, true
				}
				return route{}, false
			}
			rc.p1 = seg[1]
			if get {
				return rCardGet, true
			}
		case 3:
			rc.p1 = seg[1]
			switch {
			case seg[2] == "secure" && get:
				return rCardSecure, true
			case seg[2] == "withdraw" && post:
				return rWithdraw, true
			case seg[2] == "spend-limits" && method == http.MethodPut:
				return rSpendLimits, true
			case seg[2] == "status" && method == http.MethodPatch:
				return rStatus, true
			case seg[2] == "contact" && method == http.MethodPatch:
				return rContact, true
			case seg[2] == "simulate-webhook" && post:
				return rSimulate, true
			}
		}
	case "gift-cards":
		switch {
		case n == 2 && seg[1] == "quote" && get:
			return rGiftQuote, true
		case n == 2 && seg[1] == "purchase" && post:
			return rGiftPurchase, true
		case n == 3 && seg[1] == "verify" && get:
			rc.p1 = seg[2]
			return rGiftVerify, true
		case n == 3 && seg[1] == "transactions" && get:
			rc.p1 = seg[2]
			return rGiftLookup, true
		}
	case "betting":
		if n == 2 && seg[1] == "quote" && get {
			return rBetQuote, true
		}
	}
	return route{}, false
}

// serveAPI runs a merchant API request: route, latency, auth, rate limit, handler.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rest string) {
	rc := &reqCtx{w: w, r: r, path: r.URL.Path, world: s.world.Load()}
	rt, ok := matchAPI(r.Method, rest, rc)
	if d := s.latency.Load(); d > 0 {
		t := time.NewTimer(time.Duration(d))
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}
	rc.now = s.clk.Now()
	if ok && s.faults.bettingQuoteMissing && rest == "/betting/quote" {
		ok = false
	}
	if !ok {
		s.notFoundRoute(rc)
		return
	}
	if s.faults.authQuotesNoToken && r.Header.Get("Authorization") == "" &&
		(rest == "/gift-cards/quote" || rest == "/betting/quote") {
		rt.h(s, rc) // the quote handlers use no merchant state
		return
	}
	if rt.noAuth {
		// Before credentials are checked the merchant is unknown: limit per IP.
		if s.limits.on(rt.g) {
			ip, _ := clientIP(r)
			if !s.rateLimit(rc, "ip:"+ip.String(), rt.g) {
				return
			}
		}
		rt.h(s, rc)
		return
	}
	if !s.authenticate(rc) {
		return
	}
	if s.faults.refLookupBroken && rc.p1 != "" && strings.HasPrefix(rest, "/cards/") && !strings.HasPrefix(rc.p1, "crd_") {
		s.writeError(rc, http.StatusNotFound, msgCardNotFound) // by id only
		return
	}
	if s.faults.refWritesBroken && rc.p1 != "" && !strings.HasPrefix(rc.p1, "crd_") &&
		(strings.HasSuffix(rest, "/withdraw") || strings.HasSuffix(rest, "/status") || strings.HasSuffix(rest, "/spend-limits")) {
		s.writeError(rc, http.StatusNotFound, msgCardNotFound)
		return
	}
	if !s.rateLimit(rc, s.limitKey(rc), rt.g) {
		return
	}
	rt.h(s, rc)
}
