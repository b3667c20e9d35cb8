package access

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
	"github.com/merchant-harness/mph/suites/webhookrx"
)

// eventKinds is the Events table: event_type → dispatched kind.
var eventKinds = []struct{ eventType, kind string }{
	{"authorization", "virtualcard.transaction.authorization"},
	{"settlement", "virtualcard.transaction.settlement"},
	{"reversal", "virtualcard.transaction.reversed"},
	{"decline", "virtualcard.transaction.declined"},
}

func simulate(ctx context.Context, c *client.Client, idOrRef string, body any) *client.Response {
	GinkgoHelper()
	return Must(c.Post(ctx, CardURL(idOrRef, "/simulate-webhook"), body))
}

// expectSimulation asserts a 200 simulation answer for kind and returns data.
func expectSimulation(resp *client.Response, kind string) JSON {
	GinkgoHelper()
	body := ExpectEnvelopeB(resp, schemas.WebhookSimulationResponse)
	d := Data(body)
	Expect(d["event_type"]).To(Equal(kind), "the answer's event_type is the dispatched event kind")
	ref, _ := d["reference"].(string)
	Expect(ref).To(HavePrefix("SIMULATE_"), "the simulation reference starts with SIMULATE_")
	Expect(len(ref)).To(BeNumerically(">", len("SIMULATE_")), "the simulation reference names the event after SIMULATE_")
	expectDispatchConsistent(body)
	return d
}

// matchDelivery matches the delivery of a simulation by its reference only:
// at the profile's pointer, or anywhere in the delivery when nothing is
// there (the payload shape is not shown). A kind is no identity: anyone who
// can reach the receiver can send one.
func matchDelivery(ref string) func(webhookrx.Delivery) bool {
	return func(del webhookrx.Delivery) bool { return deliveryNames(del, ref) }
}

// deliveryNames reports whether a delivery names one of ids: at the profile's
// reference pointer, or as any other string value of its JSON body (a card
// transaction's delivery may name its own reference there, and the card
// elsewhere).
func deliveryNames(d webhookrx.Delivery, ids ...string) bool {
	want := map[string]bool{}
	for _, id := range ids {
		if id != "" {
			want[id] = true
		}
	}
	if len(want) == 0 {
		return false
	}
	if r, ok := deliveryField(d, Profile().Webhooks.DeliveryReferencePointer); ok && want[r] {
		return true
	}
	var doc any
	if (&client.Response{Body: d.Body}).JSON(&doc) != nil {
		return false
	}
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for _, x := range t {
				walk(x)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		case string:
			found = found || want[t]
		}
	}
	walk(doc)
	return found
}

// skipUnattributed ends the spec without a verdict when deliveries of kind
// arrived (signed, when the profile names a signature) but none names what
// identifies the awaited one (the payload shape is not shown; byReference:
// one naming another reference is another event's): a kind alone
// attributes nothing, since anyone reaching the receiver can send one. With
// no such delivery the spec goes on and fails.
func skipUnattributed(recv *webhookrx.HookSink, kind, what string, byReference bool) {
	GinkgoHelper()
	n := 0
	for _, d := range recv.Deliveries() {
		k, _ := deliveryField(d, Profile().Webhooks.DeliveryKindPointer)
		if d.Received.Before(recv.Since) || k != kind || !recv.Authentic(d) {
			continue
		}
		if _, named := deliveryField(d, Profile().Webhooks.DeliveryReferencePointer); byReference && named {
			continue // it names another reference: another event's
		}
		n++
	}
	if n > 0 {
		Skip(fmt.Sprintf("%d deliveries of %s arrived, none carrying %s (where the payload names it is not shown; profile webhooks.deliveryReferencePointer): a kind alone attributes no delivery; no verdict on this spec", n, kind, what))
	}
}

// nothingYet ends a spec whose delivery did not arrive within
// webhooks.deliveryWait without a verdict when nothing tells whether one is
// still in flight (the sandbox controls do: then the wait ends early and
// the spec fails): delivery timing and retries are not shown.
func nothingYet(kind string) {
	GinkgoHelper()
	if !Has(CapSandboxControls) {
		NoVerdict(fmt.Sprintf("no delivery of %s within %s (webhooks.deliveryWait); how soon a delivery leaves is not shown, and without the sandbox controls nothing says whether one is still on its way", kind, Timeouts().WebhookDelivery))
	}
}

// deliveryKind reads the event kind of a delivery at the profile's pointer.
func deliveryField(d webhookrx.Delivery, pointer string) (string, bool) {
	if pointer == "" {
		return "", false
	}
	var doc any
	if err := (&client.Response{Body: d.Body}).JSON(&doc); err != nil {
		return "", false
	}
	v, ok := Ptr(doc, pointer)
	s, _ := v.(string)
	return s, ok
}

var _ = Describe("Webhook simulation: POST /cards/{id}/simulate-webhook", func() {
	simulationAnswerTable()
	deliveryTable()
	deliveryFailureSpecs()
	eventTypeRefusalTable()
	simulationRefusalSpecs()
})

// simulations are one simulation of each event_type of the Events table,
// each answer read once (the card is only read).
type simulations map[string]Answer

func simulateEach(ctx SpecContext) simulations {
	c := fixtures.SharedCard(ctx)
	out := simulations{}
	for _, ek := range eventKinds {
		out[ek.eventType] = ReadAnswer(simulate(ctx, API(), c.ID, JSON{"event_type": ek.eventType}), schemas.WebhookSimulationResponse)
	}
	return out
}

// each runs rule on the answer to every event_type.
func (s simulations) each(rule func(eventType string, a Answer, d JSON)) {
	GinkgoHelper()
	for _, ek := range eventKinds {
		By("event_type " + ek.eventType)
		a := s[ek.eventType]
		rule(ek.eventType, a, Data(a.Body))
	}
}

// expectKind asserts the answer to eventType names kind.
func (s simulations) expectKind(eventType, kind string) {
	GinkgoHelper()
	a := s[eventType]
	ExpectStatus(a.Resp, http.StatusOK)
	Expect(Data(a.Body)["event_type"]).To(Equal(kind), "the answer's event_type is the dispatched event kind")
}

func simulationAnswerTable() {
	answers := Shared(simulateEach)
	ConformanceTable("simulating each event_type",
		func(ctx SpecContext, rule func(simulations)) { rule(answers(ctx)) },
		Destructive, Needs(CapTestEnvironment),
		// callback_url names the URL a dispatched webhook went to (a merchant
		// may have none configured: "Configuration of the webhook URL: not
		// shown"); skip_reason "explains why" it was not dispatched (null
		// or absent when it was).
		ConformanceEntry("answers 200 in Envelope B whose data is event_type, reference, dispatched, callback_url when dispatched and skip_reason when not", SpecID("webhooks.answers-200-envelope-b"), func(s simulations) {
			s.each(func(_ string, a Answer, d JSON) {
				ExpectStatus(a.Resp, http.StatusOK)
				ExpectJSONContentType(a.Resp)
				Expect(schemas.Validate(schemas.EnvelopeB, a.Resp.Body)).To(Succeed(), "not Envelope B")
				members := []string{"event_type", "reference", "dispatched", "skip_reason"}
				if d["dispatched"] == true {
					members = []string{"event_type", "reference", "dispatched", "callback_url"}
				}
				for _, k := range members {
					Expect(d).To(HaveKey(k), "data carries %s (dispatched %v)", k, d["dispatched"])
				}
				a.ExpectNoViolationOutside("/data/event_type", "/data/reference", "/data/skip_reason")
			})
		}, Reqs("WEBHOOK-01", "ENV-03")),
		ConformanceEntry("maps event_type authorization to virtualcard.transaction.authorization", SpecID("webhooks.maps-event-type-authorization"), func(s simulations) {
			s.expectKind("authorization", "virtualcard.transaction.authorization")
		}, Reqs("WEBHOOK-03")),
		ConformanceEntry("maps event_type settlement to virtualcard.transaction.settlement", SpecID("webhooks.maps-event-type-settlement"), func(s simulations) {
			s.expectKind("settlement", "virtualcard.transaction.settlement")
		}, Reqs("WEBHOOK-04")),
		ConformanceEntry("maps event_type reversal to virtualcard.transaction.reversed", SpecID("webhooks.maps-event-type-reversal"), func(s simulations) {
			s.expectKind("reversal", "virtualcard.transaction.reversed")
		}, Reqs("WEBHOOK-05")),
		ConformanceEntry("maps event_type decline to virtualcard.transaction.declined", SpecID("webhooks.maps-event-type-decline"), func(s simulations) {
			s.expectKind("decline", "virtualcard.transaction.declined")
		}, Reqs("WEBHOOK-06")),
		ConformanceEntry("gives a reference starting with SIMULATE_", SpecID("webhooks.gives-reference-starting"), func(s simulations) {
			s.each(func(_ string, a Answer, d JSON) {
				a.ExpectNoViolationUnder("/data/reference")
				ref, _ := d["reference"].(string)
				Expect(ref).To(HavePrefix("SIMULATE_"), "the simulation reference starts with SIMULATE_")
				Expect(len(ref)).To(BeNumerically(">", len("SIMULATE_")), "the simulation reference names the event after SIMULATE_")
			})
		}, Reqs("WEBHOOK-07")),
		ConformanceEntry("says dispatched true when sent, otherwise why in a non-empty skip_reason", SpecID("webhooks.says-dispatched-true-sent"), func(s simulations) {
			s.each(func(_ string, a Answer, d JSON) {
				a.ExpectNoViolationUnder("/data/skip_reason")
				expectDispatchConsistent(a.Body)
			})
		}, Reqs("WEBHOOK-08")),
	)
}

// expectDispatchConsistent: dispatched is a boolean; a sent webhook is a
// success; one not sent says why.
func expectDispatchConsistent(body JSON) {
	GinkgoHelper()
	d := Data(body)
	Expect(d).To(HaveKey("dispatched"))
	if d["dispatched"] == true {
		// skip_reason of a sent webhook: "string or null", its value not
		// stated; Envelope B's success: a boolean whose meaning is not
		// stated (the schema checks its type).
		return
	}
	Expect(d["dispatched"]).To(BeFalse(), "dispatched is a boolean")
	s, _ := d["skip_reason"].(string)
	Expect(strings.TrimSpace(s)).NotTo(BeEmpty(), "when not dispatched, skip_reason explains why")
}

// simulateDelivered simulates eventType for c with recv configured and
// returns the answer's data and the delivery it made.
func simulateDelivered(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card, eventType, kind string) (JSON, webhookrx.Delivery) {
	GinkgoHelper()
	d := expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": eventType}), kind)
	Expect(d["dispatched"]).To(BeTrue(), "a reachable webhook URL is configured: the event must be sent (skip_reason %v)", d["skip_reason"])
	ref, _ := d["reference"].(string)
	got, ok := recv.Next(ctx, matchDelivery(ref))
	if !ok {
		skipUnattributed(recv, kind, "its reference "+ref, true)
		nothingYet(kind)
	}
	Expect(ok).To(BeTrue(), "no delivery of %s carrying its reference %s reached the receiver at %s %s; received %d deliveries%s", kind, ref, recv.URL(), recv.Waited(Timeouts().WebhookDelivery), len(recv.Deliveries()), recv.DroppedNote())
	return d, got
}

// expectDelivered asserts eventType's webhook arrives at the configured URL,
// signed as the profile says and carrying its kind.
func expectDelivered(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card, eventType, kind string) {
	GinkgoHelper()
	_, got := simulateDelivered(ctx, recv, c, eventType, kind)
	webhookrx.ExpectSigned(got, recv.Key)
	if wp := Profile().Webhooks; wp.DeliveryKindPointer != "" {
		k, found := deliveryField(got, wp.DeliveryKindPointer)
		Expect(found).To(BeTrue(), "the delivery carries no event kind at %s (profile webhooks.deliveryKindPointer): %s", wp.DeliveryKindPointer, string(got.Body))
		Expect(k).To(Equal(kind), "the delivered event's kind")
	}
}

// deliveryRule is one rule of the delivery table, run with a receiver
// configured as the merchant's webhook URL and a card.
type deliveryRule func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card)

func deliveryTable() {
	ConformanceTable("delivers each simulated event to the configured webhook URL",
		func(ctx SpecContext, rule deliveryRule) {
			rule(ctx, webhookrx.WithReceiver(ctx), fixtures.SharedCard(ctx))
		},
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver),
		ConformanceEntry("delivers a simulated authorization as virtualcard.transaction.authorization", SpecID("webhooks.delivers-simulated"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			expectDelivered(ctx, recv, c, "authorization", "virtualcard.transaction.authorization")
		}), Reqs("WEBHOOK-09")),
		ConformanceEntry("delivers a simulated settlement as virtualcard.transaction.settlement", SpecID("webhooks.delivers-simulated-settlement"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			expectDelivered(ctx, recv, c, "settlement", "virtualcard.transaction.settlement")
		}), Reqs("WEBHOOK-09")),
		ConformanceEntry("delivers a simulated reversal as virtualcard.transaction.reversed", SpecID("webhooks.delivers-simulated-reversal"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			expectDelivered(ctx, recv, c, "reversal", "virtualcard.transaction.reversed")
		}), Reqs("WEBHOOK-09")),
		ConformanceEntry("delivers a simulated decline as virtualcard.transaction.declined", SpecID("webhooks.delivers-simulated-decline"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			expectDelivered(ctx, recv, c, "decline", "virtualcard.transaction.declined")
		}), Reqs("WEBHOOK-09")),
		ConformanceEntry("gives callback_url, the configured webhook URL", SpecID("webhooks.gives-callback-url-configured"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			d, _ := simulateDelivered(ctx, recv, c, "authorization", "virtualcard.transaction.authorization")
			webhookrx.ExpectCallbackURL(d["callback_url"], recv.Callback)
		}), Reqs("WEBHOOK-10")),
		ConformanceEntry("signs each delivery as the profile says (webhooks.signature: header, HMAC-SHA256, key)", SpecID("webhooks.signs-each-delivery-profile"), deliveryRule(func(ctx SpecContext, recv *webhookrx.HookSink, c fixtures.Card) {
			if Profile().Webhooks.Signature.Header == "" {
				Skip("the profile verifies no delivery signature (webhooks.signature.header is empty); the document does not show one")
			}
			_, got := simulateDelivered(ctx, recv, c, "settlement", "virtualcard.transaction.settlement")
			webhookrx.ExpectSigned(got, recv.Key)
		}), Reqs("WEBHOOK-09")),
	)
}

// deliveryFailureSpecs: a webhook URL that cannot be reached, and the
// webhooks of card transactions.
func deliveryFailureSpecs() {
	ConformanceIt("reports dispatched false with a non-empty skip_reason when the webhook URL cannot be reached (dispatched true is the queued reading, webhooks.dispatchedMeans)", SpecID("webhooks.reports-dispatched-false-non"),
		Reqs("WEBHOOK-08"),
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver),
		func(ctx SpecContext) {
			if WebhooksPreconfigured() {
				Skip("needs the merchant's webhook URL changed to an unreachable one: the URL is pre-configured (webhooks.preconfigured)")
			}
			recv := webhookrx.WithReceiverThroughControls(ctx)
			recv.Close() // the configured URL now refuses connections
			c := fixtures.SharedCard(ctx)
			d := expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": "decline"}), "virtualcard.transaction.declined")
			if d["dispatched"] == true && Profile().Webhooks.DispatchedMeans != "sent" {
				Skip("not applicable: dispatched true for an unreachable URL is the queued reading of \"dispatched is true when sent\" (webhooks.dispatchedMeans: " +
					Profile().Webhooks.DispatchedMeans + "): a delivery that fails later is not reported in this answer (retry behaviour: not shown)")
			}
			Expect(d["dispatched"]).To(BeFalse(), "nothing can be sent to a closed receiver, so dispatched must be false (webhooks.dispatchedMeans: sent)")
		})

	// Which transactions send which webhooks is not shown beyond the kinds'
	// meanings (a server may send none for a decline), and retries are not
	// shown either: the approval's webhook is the one expected.
	ConformanceIt("sends the webhook of an approved card transaction to the configured URL (an authorization, where the profile says where the kind is)", SpecID("webhooks.sends-webhooks-card"),
		Reqs("WEBHOOK-12"),
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver, CapTransactions),
		func(ctx SpecContext) {
			wp := Profile().Webhooks
			recv := webhookrx.WithReceiver(ctx)
			c := ActiveCard(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("5.00"))))
			// A delivery is this card's when it names the new card (its id
			// or reference): a kind alone is no identity. Without the
			// profile's kind pointer (the payload shape is not shown) any
			// delivery naming the card after the approval is its webhook;
			// with it, the kind is the authorization's.
			ofCard := func(kind string) func(webhookrx.Delivery) bool {
				return func(d webhookrx.Delivery) bool {
					k, _ := deliveryField(d, wp.DeliveryKindPointer)
					return (wp.DeliveryKindPointer == "" || k == kind) && deliveryNames(d, c.ID, c.Reference)
				}
			}
			recv.Since = time.Now() // what the issuance sent is not this spec's subject
			ExpectApproved(ctx, c, M("1.00"), "an ACTIVE card with funds")
			got, ok := recv.Next(ctx, ofCard("virtualcard.transaction.authorization"))
			if !ok {
				skipUnattributed(recv, "virtualcard.transaction.authorization", "the card's id or reference", false)
				nothingYet("virtualcard.transaction.authorization")
			}
			Expect(ok).To(BeTrue(), "an approved transaction sends a webhook naming the card (virtualcard.transaction.authorization; none arrived %s)%s", recv.Waited(Timeouts().WebhookDelivery), recv.DroppedNote())
			webhookrx.ExpectSigned(got, recv.Key)
		})
}

// eventTypeRefusalTable: an empty event_type is a payload validation
// failure (documented: 400, message an array); a value outside the four
// event types must be refused, but which error is not shown (profile
// errors.status.invalidValue, else any 4xx). A case variant
// ("AUTHORIZATION") is not tried: case handling is not shown.
func eventTypeRefusalTable() {
	ConformanceTable("validates event_type",
		func(ctx SpecContext, rule func(SpecContext, fixtures.Card)) { rule(ctx, fixtures.SharedCard(ctx)) },
		Needs(CapTestEnvironment),
		// "" is a missing value or one outside the four: either refusal.
		ConformanceEntry("refuses an empty event_type with 400 or the profile's invalid-value status", SpecID("errors.refuses-empty-event-type"), func(ctx SpecContext, c fixtures.Card) {
			EmptyEnumRefusal(simulate(ctx, API(), c.ID, JSON{"event_type": ""}))
		}, Reqs("WEBHOOK-02")),
		ConformanceEntry("refuses an unknown event_type with a 4xx error (the profile's status)", SpecID("webhooks.refuses-unknown-event-type"), func(ctx SpecContext, c fixtures.Card) {
			for _, et := range []string{"refund", "virtualcard.transaction.authorization"} {
				By("event_type " + et)
				ExpectRefusal(simulate(ctx, API(), c.ID, JSON{"event_type": et}), "invalidValue")
			}
		}, Reqs("WEBHOOK-02")),
		ConformanceEntry("refuses a request without event_type with 400", SpecID("webhooks.refuses-request-without-event"), func(ctx SpecContext, c fixtures.Card) {
			ExpectErrorWithPath(simulate(ctx, API(), c.ID, JSON{}), http.StatusBadRequest)
		}, Reqs("WEBHOOK-02")),
	)
}

// simulationRefusalSpecs: addressing, unknown cards and LIVE credentials.
func simulationRefusalSpecs() {
	ConformanceIt("simulates for a card addressed by its reference", SpecID("cards.simulates-card-addressed"),
		Reqs("GET-02"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			c := fixtures.SharedCard(ctx)
			expectSimulation(simulate(ctx, API(), c.Reference, JSON{"event_type": "authorization"}), "virtualcard.transaction.authorization")
		})

	ConformanceIt("answers 404 for an unknown card", SpecID("webhooks.answers-404-unknown-card"),
		Reqs("WEBHOOK-14", "ERR-10"), Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			ExpectErrorWithPath(simulate(ctx, API(), "crd_"+fixtures.Ref("nosuch"), JSON{"event_type": "authorization"}), http.StatusNotFound)
		})

	// "With live credentials the request is rejected with 400 or 403"; a
	// sandbox card does not exist in LIVE, and whether the card or the
	// environment is checked first is not shown: a 404 for the sandbox
	// card sends the check to a LIVE card of the LIVE merchant, where
	// LIVE writes are allowed (--allow-live), else no verdict.
	ConformanceIt("refuses the simulation with LIVE credentials (400 or 403)", SpecID("webhooks.refuses-simulation-live"),
		Reqs("WEBHOOK-11", "ERR-09"), Destructive, Needs(CapLiveTier2),
		func(ctx SpecContext) {
			live := APIAs(*Cfg().LiveTier2)
			resp := simulate(ctx, live, fixtures.SharedCard(ctx).ID, JSON{"event_type": "authorization"})
			if resp.Status == http.StatusNotFound {
				if !LiveWritesAllowed() {
					OtherRefusalFirst(resp, "the refusal of a simulation with LIVE credentials (a LIVE card to try it on needs --allow-live)")
				}
				By("the sandbox card is unknown in LIVE: simulating on a LIVE card of the LIVE merchant")
				card := cardAs(ctx, live, customerAs(ctx, live), "")
				resp = simulate(ctx, live, card.ID, JSON{"event_type": "authorization"})
			}
			Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusForbidden), "a LIVE key must be refused with 400 or 403, got %d", resp.Status)
			ExpectError(resp, resp.Status)
			Expect(string(resp.Body)).NotTo(ContainSubstring("SIMULATE_"), "nothing may be simulated with a LIVE key")
		})
}
