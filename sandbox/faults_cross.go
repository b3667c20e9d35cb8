package sandbox

// Faults of the area "Cross-cutting rules" (the registry: sandbox/fault): a
// rule the document states for every endpoint broken on some routes only, the
// way a module with checks of its own breaks it. The sandbox checks
// authentication, bodies and errors in one place each; these faults bend
// that place for a module, so that only the generated cell of the rule on
// that module's endpoints can catch them. Hooks: crossServe (before
// authentication), crossDecodesOnly, crossSkipsIP and crossSkipsKYB (in
// authenticate), and the answers bent after the handler
// (faults_cross_answers.go, sandbox/rewrite/bend.go).

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/token"
)

// crossServe serves a request whose authentication a fault of this file
// bypasses, or a body a body fault answers, and reports whether it did.
func (s *Server) crossServe(rc *answer.Req, rt *route, rest string) bool {
	if s.crossBody(rc, rest) {
		return true
	}
	if rt.noAuth {
		return false
	}
	st := s.crossBypass(rc, rest)
	if st == nil {
		return false
	}
	rc.St = st
	rt.h(s, rc)
	return true
}

// crossBypass is the merchant environment a bypassing fault serves the
// request as, nil for the normal path.
func (s *Server) crossBypass(rc *answer.Req, rest string) *state.EnvState {
	h := rc.R.Header.Get("Authorization")
	scheme, value, _ := strings.Cut(h, " ")
	value = strings.TrimSpace(value)
	demo := rc.World.Merchants[DemoMerchants()[0].ID].Envs[state.EnvTest]
	switch {
	case h == "" && s.faults.On(fault.VerifyNoToken) && rc.R.Method == http.MethodGet && strings.HasPrefix(rest, "/gift-cards/verify/"):
		return orderOwner(rc.World, rc.ID)
	case strings.EqualFold(scheme, "basic") && s.faults.On(fault.BasicAccepted):
		return basicMerchant(rc.World, value)
	case !strings.EqualFold(strings.TrimSpace(scheme), "bearer"):
		return nil
	case s.faults.On(fault.MalformedBearerServed) && !isJWT(value):
		return demo
	case s.faults.On(fault.ContactSimulateAnyBearer) && (strings.HasSuffix(rest, "/contact") || strings.HasSuffix(rest, "/simulate-webhook")):
		if _, err := s.jwt.Verify(value, false); err != nil {
			return demo
		}
	}
	return nil
}

// isJWT reports whether v parses as a JWT (its signature unchecked).
func isJWT(v string) bool {
	_, err := token.Decode(v)
	return err == nil
}

// orderOwner is the TEST merchant environment holding the gift order ref.
func orderOwner(w *state.World, ref string) *state.EnvState {
	for _, m := range w.Merchants {
		st := m.Envs[state.EnvTest]
		st.Mu.RLock()
		o := st.FindOrder(ref)
		st.Mu.RUnlock()
		if o != nil {
			return st
		}
	}
	return nil
}

// basicMerchant is the environment of the Basic credentials merchantId:secretKey.
func basicMerchant(w *state.World, value string) *state.EnvState {
	raw, err := base64.StdEncoding.DecodeString(value)
	if err != nil {
		return nil
	}
	mid, key, _ := strings.Cut(string(raw), ":")
	if ref, ok := w.Keys[key]; ok && ref.Merchant.ID == mid {
		return ref.Merchant.Envs[ref.Env]
	}
	return nil
}

// crossDecodesOnly, in authenticate: the claims of a token that does not
// verify, when the gift module only decodes tokens.
func (s *Server) crossDecodesOnly(rc *answer.Req, raw string, err error) (*token.Claims, error) {
	if err == nil || !s.faults.On(fault.GiftDecodeOnly) || fault.Module(s.restOf(rc)) != "gift" {
		return nil, err
	}
	c, perr := token.Decode(raw)
	if perr != nil {
		return nil, errors.Join(err, perr)
	}
	return c, nil
}

// crossSkipsIP, in ipAllowed: the whitelist a fault does not enforce here.
func (s *Server) crossSkipsIP(rc *answer.Req) bool {
	return s.faults.On(fault.IPIgnored) ||
		(s.faults.On(fault.IPCardsOnly) && fault.Module(s.restOf(rc)) == "gift")
}

// crossSkipsKYB, in authenticate: the KYB tier a fault does not check here.
func (s *Server) crossSkipsKYB(rc *answer.Req) bool {
	return s.faults.On(fault.KYBCardsOnly) && fault.Module(s.restOf(rc)) == "gift"
}

// restOf is the request's path below the base.
func (s *Server) restOf(rc *answer.Req) string { return strings.TrimPrefix(rc.Path, s.base) }

// The faults of each hook, as masks: off, a hook costs one test of a few
// words.
var (
	crossRequestFaults = fault.Mask(fault.VerifyNoToken, fault.BasicAccepted, fault.MalformedBearerServed, fault.ContactSimulateAnyBearer,
		fault.BodyUnchecked500TokenPurchase, fault.BodyUnchecked500Cards, fault.BodyNotObject500, fault.BodyWrongType500,
		fault.BodyContentTypeUnchecked, fault.AmountOverflow500, fault.GiftAmountSignIgnored)
	crossAnswerFaults = fault.Mask(fault.ValidationStringPurchase, fault.Gift401NotEnveloped, fault.SecureCachePublic, fault.PurchaseNoVoucher,
		fault.PurchaseSuccessProcessing, fault.LookupFlagInverted, fault.VerifyFlagStale, fault.CustListFirstPage, fault.CardListFirstPage, fault.UnknownCard500)
)
