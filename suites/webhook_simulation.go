package suites

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// eventKinds is the Events table: event_type → dispatched kind.
var eventKinds = []struct{ eventType, kind, req string }{
	{"authorization", "virtualcard.transaction.authorization", "WEBHOOK-03"},
	{"settlement", "virtualcard.transaction.settlement", "WEBHOOK-04"},
	{"reversal", "virtualcard.transaction.reversed", "WEBHOOK-05"},
	{"decline", "virtualcard.transaction.declined", "WEBHOOK-06"},
}

func simulate(ctx context.Context, c *client.Client, idOrRef string, body any) *client.Response {
	GinkgoHelper()
	return Must(c.Post(ctx, cardURL(idOrRef, "/simulate-webhook"), body))
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
	Expect(d).To(HaveKey("dispatched"))
	if d["dispatched"] == true {
		// Whether Envelope B's success may be false on a 200 whose webhook was
		// not sent is not shown; a sent one is a success.
		Expect(body["success"]).To(BeTrue(), "Envelope B success must be true when the webhook was dispatched")
		// skip_reason of a sent webhook: "string or null", its value not stated.
	} else {
		Expect(d["dispatched"]).To(BeFalse(), "dispatched is a boolean")
		s, _ := d["skip_reason"].(string)
		Expect(strings.TrimSpace(s)).NotTo(BeEmpty(), "when not dispatched, skip_reason explains why")
	}
	return d
}

// matchDelivery matches the delivery of a simulation by its reference, or by
// its kind when the delivery carries no reference at the profile's pointer.
func matchDelivery(ref, kind string) func(WebhookDelivery) bool {
	wp := Profile().Webhooks
	return func(del WebhookDelivery) bool {
		if r, ok := deliveryField(del, wp.DeliveryReferencePointer); ok {
			return r == ref
		}
		k, _ := deliveryField(del, wp.DeliveryKindPointer)
		return k == kind
	}
}

// deliveryKind reads the event kind of a delivery at the profile's pointer.
func deliveryField(d WebhookDelivery, pointer string) (string, bool) {
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
	for _, ek := range eventKinds {
		ek := ek
		ConformanceIt("maps event_type "+ek.eventType+" to "+ek.kind+" with a SIMULATE_ reference and a consistent dispatched/skip_reason",
			Reqs("WEBHOOK-01", ek.req, "WEBHOOK-07", "WEBHOOK-08", "ENV-03", "ENV-05"), Destructive, Needs(CapTestEnvironment),
			func(ctx SpecContext) {
				c := SharedCard(ctx)
				expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": ek.eventType}), ek.kind)
			})
	}

	ConformanceIt("simulates for a card addressed by its reference",
		Reqs("WEBHOOK-01", "WEBHOOK-03", "GET-02"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			c := SharedCard(ctx)
			expectSimulation(simulate(ctx, API(), c.Reference, JSON{"event_type": "authorization"}), "virtualcard.transaction.authorization")
		})

	ConformanceIt("delivers each simulated event to the configured webhook URL: dispatched true, callback_url the URL, the delivery received with its kind and reference",
		Reqs("WEBHOOK-09", "WEBHOOK-10", "WEBHOOK-08", "WEBHOOK-03", "WEBHOOK-04", "WEBHOOK-05", "WEBHOOK-06"),
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver),
		func(ctx SpecContext) {
			recv := WithReceiver(ctx)
			c := SharedCard(ctx)
			wp := Profile().Webhooks
			for _, ek := range eventKinds {
				By("event_type " + ek.eventType)
				d := expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": ek.eventType}), ek.kind)
				Expect(d["dispatched"]).To(BeTrue(), "a reachable webhook URL is configured: the event must be sent (skip_reason %v)", d["skip_reason"])
				ExpectCallbackURL(d["callback_url"], recv.Callback)
				ref, _ := d["reference"].(string)
				got, ok := recv.Next(ctx, matchDelivery(ref, ek.kind))
				Expect(ok).To(BeTrue(), "no delivery of %s (reference %s) reached the receiver at %s %s; received %d deliveries", ek.kind, ref, recv.URL(), recv.Waited(Timeouts().WebhookDelivery), len(recv.Deliveries()))
				ExpectSigned(got, recv.Key)
				if wp.DeliveryKindPointer != "" {
					k, found := deliveryField(got, wp.DeliveryKindPointer)
					Expect(found).To(BeTrue(), "the delivery carries no event kind at %s (profile webhooks.deliveryKindPointer): %s", wp.DeliveryKindPointer, string(got.Body))
					Expect(k).To(Equal(ek.kind), "the delivered event's kind")
				}
			}
		})

	ConformanceIt("signs each delivery as the profile says (webhooks.signature: header, HMAC-SHA256, key)",
		Reqs("WEBHOOK-09"), Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver),
		func(ctx SpecContext) {
			if Profile().Webhooks.Signature.Header == "" {
				Skip("the profile verifies no delivery signature (webhooks.signature.header is empty); the document does not show one")
			}
			recv := WithReceiver(ctx)
			c := SharedCard(ctx)
			const kind = "virtualcard.transaction.settlement"
			d := expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": "settlement"}), kind)
			Expect(d["dispatched"]).To(BeTrue(), "a reachable webhook URL is configured: the event must be sent (skip_reason %v)", d["skip_reason"])
			ref, _ := d["reference"].(string)
			got, ok := recv.Next(ctx, matchDelivery(ref, kind))
			Expect(ok).To(BeTrue(), "no delivery of %s (reference %s) reached %s %s", kind, ref, recv.URL(), recv.Waited(Timeouts().WebhookDelivery))
			ExpectSigned(got, recv.Key)
		})

	ConformanceIt("reports dispatched false with a non-empty skip_reason when the webhook URL cannot be reached",
		Reqs("WEBHOOK-08", "WEBHOOK-01"),
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver),
		func(ctx SpecContext) {
			if WebhooksPreconfigured() {
				Skip("needs the merchant's webhook URL changed to an unreachable one: the URL is pre-configured (webhooks.preconfigured)")
			}
			recv := WithReceiverThroughControls(ctx)
			recv.Close() // the configured URL now refuses connections
			c := SharedCard(ctx)
			d := expectSimulation(simulate(ctx, API(), c.ID, JSON{"event_type": "decline"}), "virtualcard.transaction.declined")
			Expect(d["dispatched"]).To(BeFalse(), "nothing can be sent to a closed receiver, so dispatched must be false")
		})

	ConformanceIt("sends the webhooks of card transactions to the configured URL: an approval as an authorization, a decline as declined",
		Reqs("WEBHOOK-12", "WEBHOOK-03", "WEBHOOK-06", "TXN-01"),
		Destructive, Serial, Needs(CapTestEnvironment, CapWebhookConfig, CapWebhookReceiver, CapTransactions),
		func(ctx SpecContext) {
			wp := Profile().Webhooks
			if wp.DeliveryKindPointer == "" {
				Skip("the profile does not say where a delivery carries its kind (webhooks.deliveryKindPointer)")
			}
			recv := WithReceiver(ctx)
			c := NewCard(ctx, WithAmount(M("5.00")))
			// Distinct events of a kind: a redelivery (retries are not shown)
			// repeats the same body.
			countKind := func(kind string) int {
				seen := map[string]bool{}
				for _, d := range recv.Deliveries() {
					if d.Received.Before(recv.Since) {
						continue
					}
					if k, _ := deliveryField(d, wp.DeliveryKindPointer); k == kind {
						seen[string(d.Body)] = true
					}
				}
				return len(seen)
			}
			expectApproved(ctx, c, M("1.00"), "an ACTIVE card with funds")
			got, ok := recv.Next(ctx, func(d WebhookDelivery) bool {
				k, _ := deliveryField(d, wp.DeliveryKindPointer)
				return k == "virtualcard.transaction.authorization"
			})
			Expect(ok).To(BeTrue(), "an approved transaction sends a virtualcard.transaction.authorization webhook (none arrived %s)", recv.Waited(Timeouts().WebhookDelivery))
			ExpectSigned(got, recv.Key)
			SetCardStatus(ctx, c.ID, "FROZEN")
			expectDeclined(ctx, c, M("1.00"), "the card is FROZEN")
			got, ok = recv.Next(ctx, func(d WebhookDelivery) bool {
				k, _ := deliveryField(d, wp.DeliveryKindPointer)
				return k == "virtualcard.transaction.declined"
			})
			Expect(ok).To(BeTrue(), "a declined transaction sends a virtualcard.transaction.declined webhook (none arrived %s)", recv.Waited(Timeouts().WebhookDelivery))
			ExpectSigned(got, recv.Key)
			Expect(countKind("virtualcard.transaction.authorization")).To(Equal(1), "the decline must not be sent as an authorization")
		})

	// An empty event_type is a payload validation failure (documented: 400,
	// message an array); a value outside the four event types must be refused,
	// but which error is not shown (profile errors.status.invalidValue, else any
	// 4xx). A case variant ("AUTHORIZATION") is not tried: case handling is not shown.
	ConformanceIt("refuses an empty event_type with 400 and a validation message array, and an unknown one with a 4xx error (the profile's status)",
		Reqs("WEBHOOK-02", "ERR-04", "ERR-07"), Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			c := SharedCard(ctx)
			By("event_type empty")
			ExpectValidationError(simulate(ctx, API(), c.ID, JSON{"event_type": ""}))
			for _, et := range []string{"refund", "virtualcard.transaction.authorization"} {
				By("event_type " + et)
				ExpectRefusal(simulate(ctx, API(), c.ID, JSON{"event_type": et}), "invalidValue")
			}
		})

	ConformanceIt("refuses a request without event_type with 400",
		Reqs("WEBHOOK-02", "ERR-07"), Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			c := SharedCard(ctx)
			ExpectErrorWithPath(simulate(ctx, API(), c.ID, JSON{}), http.StatusBadRequest)
		})

	ConformanceIt("answers 404 for an unknown card",
		Reqs("WEBHOOK-14", "ERR-10"), Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			ExpectErrorWithPath(simulate(ctx, API(), "crd_"+Ref("nosuch"), JSON{"event_type": "authorization"}), http.StatusNotFound)
		})

	ConformanceIt("refuses the simulation with LIVE credentials (400 or 403)",
		Reqs("WEBHOOK-11", "ERR-09"), Destructive, Needs(CapLiveTier2),
		func(ctx SpecContext) {
			c := SharedCard(ctx)
			resp := simulate(ctx, APIAs(*Cfg().LiveTier2), c.ID, JSON{"event_type": "authorization"})
			Expect(resp.Status).To(BeElementOf(http.StatusBadRequest, http.StatusForbidden), "a LIVE key must be refused with 400 or 403, got %d", resp.Status)
			ExpectError(resp, resp.Status)
			Expect(string(resp.Body)).NotTo(ContainSubstring("SIMULATE_"), "nothing may be simulated with a LIVE key")
		})
})
