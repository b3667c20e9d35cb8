package sandbox

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/webhook"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type simulateAnswer struct {
	EventType   string  `json:"event_type"`
	Reference   string  `json:"reference"`
	CallbackURL string  `json:"callback_url"`
	Dispatched  bool    `json:"dispatched"`
	SkipReason  *string `json:"skip_reason"`
}

// handleSimulateWebhook is POST /cards/{id}/simulate-webhook (TEST only): a
// synthetic event delivered for real to the merchant's webhook URL.
func (s *Server) handleSimulateWebhook(rc *answer.Req) {
	st := rc.St
	if s.set.LiveSimulationCardFirst(rc) {
		return
	}
	if st.Env != state.EnvTest && !s.faults.On(fault.WebhookLiveAllowed) {
		rc.Error(http.StatusForbidden, wording.LiveSimulate)
		return
	}
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	if s.set.EmptyEnum(rc, b, "event_type", "authorization", "settlement", "reversal", "decline") {
		return
	}
	v := validate.Of(b)
	et := v.Str("event_type", !s.faults.On(fault.WebhookEventTypeUnchecked), validate.MaxShort)
	if _, known := webhook.Kinds[et]; !known && s.faults.On(fault.WebhookEventTypeUnchecked) {
		et = "authorization" // whatever was asked
	}
	v.OneOf("event_type", et, "authorization", "settlement", "reversal", "decline")
	if rc.Invalid(&v) {
		return
	}
	var id, ref string
	found := false
	s.readCard(rc, st, func(c *state.Card) reply {
		id, ref, found = c.ID, c.Ref, true
		return func() {}
	})
	if !found {
		return
	}
	kind := webhook.Kinds[et]
	if s.faults.On(fault.WebhookReversalKind) && et == "reversal" {
		kind = "virtualcard.transaction.reversal"
	}
	simRef := s.set.SimulationReference(et)
	if s.faults.On(fault.WebhookRefPrefix) {
		simRef = "SIM_" + strings.ToUpper(et) + "_" + ids.Hex(4)
	}
	var url, skip string
	var sent bool
	if s.faults.On(fault.WebhookFakeDispatch) {
		if cfg := st.Merchant.Webhook.Load(); cfg != nil {
			url = cfg.URL
		}
		sent = true
	} else {
		url, sent, skip = s.events.Dispatch(rc.R.Context(), rc.World, st, kind, webhook.Data{
			Reference: simRef, CardID: id, CardReference: ref, Amount: 1_00, Currency: "USD", Simulated: true,
		})
	}
	ans := simulateAnswer{EventType: kind, Reference: simRef, CallbackURL: url, Dispatched: sent}
	if s.faults.On(fault.WebhookCallbackURLEmpty) {
		ans.CallbackURL = ""
	}
	if s.faults.On(fault.WebhookEventTypeEchoed) {
		ans.EventType = et
	}
	msg := "Webhook dispatched"
	if !sent {
		if !s.faults.On(fault.WebhookSkipReasonNull) {
			ans.SkipReason = &skip
		}
		msg = "Webhook not dispatched"
	} else if s.variants.On(variant.SkipReasonEmpty) {
		ans.SkipReason = new(string)
	}
	rc.EnvelopeB(msg, ans)
}
