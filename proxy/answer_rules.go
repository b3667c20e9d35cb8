package proxy

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strconv"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/schemas"
)

// answerRules check that a success answer agrees with its own request, as
// the document states for each endpoint: the listing honours limit (and its
// default of 50) and the status filter, a status change answers the card
// with the new status, a simulation dispatches the kind of the event type
// asked for, spend limits echo what was set, and the configuration is that
// of the token's environment.
func (c *checker) answerRules(x *exCtx) {
	if x.ex.status < 200 || x.ex.status >= 300 || !x.ok {
		return
	}
	data, _ := member(x.json, "data")
	switch x.ep.Key() {
	case "GET /cards":
		c.listRules(x, data)
	case "PATCH /cards/{id}/status":
		want, _ := decodeObject(x.ex.req.buf)["status"].(string)
		card, _ := member(data, "card")
		got, _ := member(card, "status")
		if want == "ACTIVE" || want == "FROZEN" {
			x.verdict(got != want, session.Server, "STATUS-01", "response body /data/card/status",
				"status %s asked, the answer's card has status %s", quote(want), quote(got))
		}
	case "POST /cards/{id}/simulate-webhook":
		asked, _ := decodeObject(x.ex.req.buf)["event_type"].(string)
		if kind, ok := eventKinds[asked]; ok {
			got, _ := member(data, "event_type")
			x.verdict(got != kind.kind, session.Server, kind.req, "response body /data/event_type",
				"event_type %s asked, %s dispatched instead of %s", quote(asked), quote(got), quote(kind.kind))
		}
	case "PUT /cards/{id}/spend-limits":
		c.limitsEchoRule(x, data)
	case "GET /cards/config":
		c.environmentRule(x, data)
	}
	c.addressedCardRule(x, data)
}

// addressedCards: where each card answer holds the card, its id member, and
// the requirement that the card addressed by id or reference is the one
// answered.
var addressedCards = map[string]struct{ ptr, idField, req string }{
	"GET /cards/{id}":           {"", "id", "GET-02"},
	"GET /cards/{id}/secure":    {"", "cardId", "SECURE-02"},
	"POST /cards/{id}/withdraw": {"card", "id", "GET-02"},
	"PATCH /cards/{id}/status":  {"card", "id", "GET-02"},
}

// addressedCardRule: the card answered is the card addressed by the path,
// by its id or its reference (GET-02, SECURE-02), never another one.
func (c *checker) addressedCardRule(x *exCtx, data any) {
	where, ok := addressedCards[x.ep.Key()]
	if !ok {
		return
	}
	segs := api.Segments(x.rel)
	if len(segs) < 2 {
		return
	}
	card := data
	if where.ptr != "" {
		card, _ = member(data, where.ptr)
	}
	id, _ := member(card, where.idField)
	ref, _ := member(card, "reference")
	if id == nil && ref == nil {
		return // the schema rule reports the missing members
	}
	addressed := segs[1]
	x.verdict(id != addressed && ref != addressed, session.Server, where.req, "response body /data",
		"card %s addressed, card %s (reference %s) answered", quote(addressed), quote(id), quote(ref))
}

var eventKinds = map[string]struct{ kind, req string }{
	"authorization": {"virtualcard.transaction.authorization", "WEBHOOK-03"},
	"settlement":    {"virtualcard.transaction.settlement", "WEBHOOK-04"},
	"reversal":      {"virtualcard.transaction.reversed", "WEBHOOK-05"},
	"decline":       {"virtualcard.transaction.declined", "WEBHOOK-06"},
}

// listRules: at most limit cards (LIST-08), 50 without one (LIST-09), and
// only cards of the status asked for (LIST-02, LIST-03).
func (c *checker) listRules(x *exCtx, data any) {
	cards, ok := data.([]any)
	if !ok {
		return
	}
	q, _ := url.ParseQuery(x.ex.rawQuery)
	if l := q.Get("limit"); l != "" {
		if n, err := strconv.ParseFloat(l, 64); err == nil && n >= 1 {
			x.verdict(float64(len(cards)) > n, session.Server, "LIST-08", "response body /data",
				"%d cards answered for limit=%s", len(cards), l)
		}
	} else if !q.Has("limit") {
		x.verdict(len(cards) > 50, session.Server, "LIST-09", "response body /data",
			"%d cards answered without a limit (the default is 50)", len(cards))
	}
	want := q.Get("status")
	id := map[string]string{"ACTIVE": "LIST-02", "FROZEN": "LIST-03"}[want]
	if id == "" {
		return
	}
	for i, card := range cards {
		if st, _ := member(card, "status"); st != want {
			x.fail(session.Server, id, fmt.Sprintf("response body /data/%d/status", i), "status=%s listed a card with status %s", want, quote(st))
			return
		}
	}
	x.pass(session.Server, id)
}

// limitsEchoRule: each limit set is echoed in spendLimits (LIMITS-02).
func (c *checker) limitsEchoRule(x *exCtx, data any) {
	sent := decodeObject(x.ex.req.buf)
	echo, _ := member(data, "spendLimits")
	for _, f := range usdAmounts["PUT /cards/{id}/spend-limits"] {
		s, ok := sent[f].(json.Number)
		if !ok {
			continue
		}
		got, _ := member(echo, f)
		g, _ := got.(json.Number)
		x.verdict(!sameNumber(s, g), session.Server, "LIMITS-02", "response body /data/spendLimits/"+f,
			"%s set to %s, echoed as %s", f, s.String(), quote(got))
	}
}

func sameNumber(a, b json.Number) bool {
	if schemas.NumberReadable(a.String()) != "" || schemas.NumberReadable(b.String()) != "" {
		return a == b // beyond what the harness computes with: compared as written
	}
	ra, ok1 := new(big.Rat).SetString(a.String())
	rb, ok2 := new(big.Rat).SetString(b.String())
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

// environmentRule: the configuration is that of the caller's credentials'
// environment, as the token answer stated it (CONFIG-02).
func (c *checker) environmentRule(x *exCtx, data any) {
	_, cred, _ := bearer(x.ex.reqHeader)
	tok := c.st.tokens[sha256.Sum256([]byte(cred))]
	if tok == nil || tok.env == "" {
		return
	}
	got, _ := member(data, "environment")
	x.verdict(got != tok.env, session.Server, "CONFIG-02", "response body /data/environment",
		"configuration of environment %s answered to %s credentials", quote(got), tok.env)
}
