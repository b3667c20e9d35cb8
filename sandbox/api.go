package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type handler func(s *Server, rc *answer.Req)

// route is a matched merchant API endpoint.
type route struct {
	h      handler
	g      ratelimit.Group
	noAuth bool
	method string // set from the pattern (routes.go)
}

// The routes' handlers and rate-limit groups (patterns: routes.go).
var (
	rToken        = route{h: (*Server).handleToken, g: ratelimit.Token, noAuth: true}
	rConfig       = route{h: (*Server).handleConfig, g: ratelimit.Read}
	rCustCreate   = route{h: func(s *Server, rc *answer.Req) { s.customers.Create(rc) }, g: ratelimit.Write}
	rCustList     = route{h: func(s *Server, rc *answer.Req) { s.customers.List(rc) }, g: ratelimit.Read}
	rCardList     = route{h: (*Server).handleListCards, g: ratelimit.Read}
	rCardCreate   = route{h: (*Server).handleIssueCard, g: ratelimit.Write}
	rCardGet      = route{h: (*Server).handleGetCard, g: ratelimit.Read}
	rCardSecure   = route{h: (*Server).handleSecure, g: ratelimit.Secure}
	rWithdraw     = route{h: (*Server).handleWithdraw, g: ratelimit.Write}
	rSpendLimits  = route{h: (*Server).handleSpendLimits, g: ratelimit.Write}
	rStatus       = route{h: (*Server).handleStatus, g: ratelimit.Write}
	rContact      = route{h: (*Server).handleContact, g: ratelimit.Write}
	rSimulate     = route{h: (*Server).handleSimulateWebhook, g: ratelimit.Write}
	rGiftQuote    = route{h: func(s *Server, rc *answer.Req) { s.gifts.Quote(rc) }, g: ratelimit.Read}
	rGiftPurchase = route{h: func(s *Server, rc *answer.Req) { s.gifts.Purchase(rc) }, g: ratelimit.Write}
	rGiftVerify   = route{h: func(s *Server, rc *answer.Req) { s.gifts.Verify(rc) }, g: ratelimit.Read}
	rGiftLookup   = route{h: func(s *Server, rc *answer.Req) { s.gifts.Lookup(rc) }, g: ratelimit.Read}
	rBetQuote     = route{h: func(s *Server, rc *answer.Req) { s.gifts.BettingQuote(rc) }, g: ratelimit.Read}
)

// serveAPI runs a merchant API request routed to rt (nil: no endpoint):
// latency, auth, rate limit, handler.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rt *route) {
	if s.faults.AnyOf(crossAnswerFaults) {
		c := &crossCapture{h: http.Header{}, code: http.StatusOK}
		defer s.crossFlush(w, r, c)
		w = c
	}
	q := s.out.Req(w, r, time.Time{})
	q.World = s.world.Load()
	rc := &q
	rest := r.URL.Path[len(s.base):]
	ok := rt != nil
	if ok {
		rc.ID = r.PathValue("id")
	}
	if d := s.latency.Load(); d > 0 {
		t := time.NewTimer(time.Duration(d))
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}
	rc.Now = s.clk.Now()
	if s.longTarget(rc) {
		return
	}
	if ok && s.faults.On(fault.BettingQuoteMissing) && rest == "/betting/quote" {
		ok = false
	}
	if !ok {
		rc.NoRoute()
		return
	}
	if s.faults.On(fault.AuthQuotesNoToken) && r.Header.Get("Authorization") == "" &&
		(rest == "/gift-cards/quote" || rest == "/betting/quote") {
		rt.h(s, rc) // the quote handlers use no merchant state
		return
	}
	if s.faults.AnyOf(crossRequestFaults) && s.crossServe(rc, rt, rest) {
		return
	}
	if rt.noAuth {
		// Before credentials are checked the merchant is unknown: limit per IP.
		if s.limits.On(rt.g) {
			ip, _ := clientIP(r)
			if !s.rateLimit(rc, "ip:"+ip.String(), rt.g) {
				return
			}
		}
		rt.h(s, rc)
		return
	}
	if s.set.ExistenceBeforeAuth(rc, rest) || s.set.BodyBeforeAuth(rc) || !s.authenticate(rc) || s.set.CardBeforeBody(rc, rest) {
		return
	}
	if s.faults.On(fault.RefLookupBroken) && rc.ID != "" && strings.HasPrefix(rest, "/cards/") && !strings.HasPrefix(rc.ID, "crd_") {
		rc.Error(http.StatusNotFound, wording.CardNotFound) // by id only
		return
	}
	if s.faults.On(fault.RefWritesBroken) && rc.ID != "" && !strings.HasPrefix(rc.ID, "crd_") &&
		(strings.HasSuffix(rest, "/withdraw") || strings.HasSuffix(rest, "/status") || strings.HasSuffix(rest, "/spend-limits")) {
		rc.Error(http.StatusNotFound, wording.CardNotFound)
		return
	}
	if !s.rateLimit(rc, s.limitKey(rc), rt.g) {
		return
	}
	rt.h(s, rc)
}
