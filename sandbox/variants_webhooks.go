package sandbox

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Webhooks: payload shape, signature, retries and configuration are "not
// shown"; "dispatched is true when sent" leaves open whether handing the
// event to a delivery queue is sending it.
var (
	dDispatch = declareDimension("dispatch-meaning", []string{"OPEN-DISPATCH-MEANING"},
		"When a delivery happens and what dispatched says about it.",
		quote("dispatched is true when sent; otherwise skip_reason explains why", "Retry behaviour of deliveries: not shown"),
		"webhook-dispatch-synchronous", "The event is delivered before the answer; dispatched says whether the receiver took it.")
	vDispatchQueued = dDispatch.setting("webhook-dispatch-queued", "dispatched is true once the event is queued; the delivery follows 200 ms later, and its failure is not reported.",
		`"dispatched is true when sent" (sent to a delivery queue is a reading); "Retry behaviour of deliveries: not shown"`, "", false)

	dDeliveryTiming = declareDimension("delivery-timing", []string{"OPEN-DELIVERY-TIMING"},
		"How long after the event a delivery leaves.",
		quote("Retry behaviour of deliveries: not shown"),
		"webhook-delivery-immediate", "At once.")
	vDispatchDelayed = dDeliveryTiming.setting("webhook-delivery-delayed-2s", "A delivery leaves 2 seconds after the event (queued: after the answer; not queued: the answer waits).",
		`delivery timing is not shown`, "", false)

	dRedelivery = declareDimension("delivery-retries", []string{"OPEN-DELIVERY-RETRIES"},
		"How often a delivery is repeated.",
		quote("Retry behaviour of deliveries: not shown"),
		"webhook-delivered-once", "Each event is delivered once.")
	vRedeliver = dRedelivery.setting("webhook-redelivery", "Every webhook is delivered twice (at-least-once delivery).",
		`"Retry behaviour of deliveries: not shown"`, "", false)
	vRedeliverDistinct = dRedelivery.setting("webhook-redelivery-new-id", "Every webhook is delivered twice, the second attempt with a new delivery id and attempt: 2 in its body.",
		`"Retry behaviour of deliveries: not shown"`, "", false)

	dPayload = declareDimension("delivery-payload", []string{"OPEN-DELIVERY-PAYLOAD"},
		"The body of a delivered event.",
		quote("Payload shape of delivered events: not shown"),
		"webhook-payload-type-data", "{id, type, createdAt, environment, merchantId, data: {reference, cardId, ...}}.")
	vWebhookPayloadShape = dPayload.setting("webhook-payload-shape", "Delivered events carry the kind in event and the data under payload.",
		`"Payload shape of delivered events: not shown"`,
		"webhooks:\n  deliveryKindPointer: /event\n  deliveryReferencePointer: /payload/reference\n", false)
	vWebhookPayloadFlat = dPayload.setting("webhook-payload-flat", "Delivered events are flat: {event_type, reference, card_id, amount, currency, occurred_at}.",
		`"Payload shape of delivered events: not shown"`, "", false)

	dSignature = declareDimension("delivery-signature", []string{"OPEN-DELIVERY-SIGNATURE"},
		"How deliveries are signed, if at all.",
		quote("Signature or authenticity check of deliveries: not shown"),
		"webhook-signature-hmac-hex", "X-MPH-Signature: sha256=<hex HMAC-SHA256 of the body>.")
	vUnsigned = dSignature.setting("webhook-unsigned", "Deliveries carry no signature.",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)
	vSignatureTimestamped = dSignature.setting("webhook-signature-timestamped", "Deliveries carry X-Signature: t=<unix>,v1=<hex HMAC of \"t.body\"> (Stripe's scheme).",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)
	vSignatureBase64 = dSignature.setting("webhook-signature-base64", "Deliveries carry X-Webhook-Signature: <base64 HMAC-SHA256 of the body>.",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)

	dSkipReason = declareDimension("skip-reason", []string{"OPEN-SKIP-REASON-VALUES"},
		"The text of skip_reason.",
		quote("Values of skip_reason: not shown"),
		"skip-reason-codes", "null when dispatched; codes otherwise: no_webhook_url_configured, delivery_failed: HTTP 500.")
	vSkipReasonSentences = dSkipReason.setting("skip-reason-sentences", "skip_reason is a sentence: \"No webhook URL is configured for this merchant\", \"The receiver answered HTTP 500\".",
		`"Values of skip_reason: not shown"`, "", true)

	dSimMembers = declareDimension("webhook-url", []string{"OPEN-CALLBACK-URL-PRESENCE", "OPEN-CALLBACK-URL-FORM"},
		"How the simulation answer shows the webhook URL.",
		quote("callback_url (string), dispatched (boolean), skip_reason (string or null)", "Configuration of the webhook URL: not shown"),
		"callback-url-as-configured", "callback_url is the configured URL as given, \"\" when none is configured.")
	vSkipReasonEmpty = dSkipReason.setting("webhook-skip-reason-empty", "A dispatched simulation answers skip_reason \"\" instead of null.",
		`"skip_reason (string or null)"; "dispatched is true when sent; otherwise skip_reason explains why"`, "", false)
	vSkipReasonAbsent = dSkipReason.setting("webhook-skip-reason-absent", "A dispatched simulation has no skip_reason member.",
		`"otherwise skip_reason explains why" (needed when not dispatched)`, "", true)
	vCallbackNull = dSimMembers.setting("webhook-callback-url-null", "Without a configured webhook URL the simulation answers callback_url: null.",
		`"Configuration of the webhook URL: not shown"`, "", true)
	vCallbackNormalised = dSimMembers.setting("callback-url-normalised", "callback_url echoes the configured URL normalised: host in lower case, default port dropped, an empty path as /.",
		`"callback_url (string)" (that it is byte-identical to the configured URL is not stated)`, "", true)

	dSimReference = declareDimension("simulation-reference", []string{"OPEN-SIMULATION-REFERENCE-FORM"},
		"What follows SIMULATE_ in a simulation's reference.",
		quote("The simulation's reference is a string that starts with SIMULATE_ for the kind"),
		"simulate-reference-kind-and-random", "SIMULATE_<EVENT_TYPE>_<random>.")
	vSimRefRandom = dSimReference.setting("simulate-reference-random", "SIMULATE_<random> (the kind is not repeated in the reference).",
		`"starts with SIMULATE_ for the kind" (what follows is not stated)`, "", false)

	dSimSuccess = declareDimension("envelope-b-success", []string{"OPEN-ENVELOPE-B-SUCCESS"},
		"What the success booleans of Envelope B answers say.",
		quote("Envelope B (webhook simulation, card contact update): success (boolean)", "data = success (boolean), message (string)"),
		"envelope-b-success-true", "success (and the contact answer's data.success) is true on every 200.")
	vSimSuccessMirrors = dSimSuccess.setting("simulation-success-mirrors-dispatch", "success is false when the webhook was not dispatched.",
		`"success (boolean)" (its meaning is not stated)`, "", true)

	vContactQueued = dSimSuccess.setting("contact-update-queued", "data.success is false with \"Update queued with the card provider\" (the provider confirms later).",
		`"data = success (boolean), message (string)" (that success is true is not stated)`, "", true)
)

// bgDelivery marks a delivery's context as the queue's own.
type bgDelivery struct{}

// queueDelivery applies the dispatch and timing settings: a queued
// delivery leaves later and it reports true (the caller then answers
// dispatched true); a delayed one that is not queued waits here first.
func (s *Server) queueDelivery(ctx context.Context, w *world, st *envState, kind string, d eventData) bool {
	v := &s.variants
	if ctx.Value(bgDelivery{}) != nil {
		return false
	}
	delay := 200 * time.Millisecond
	if v.on(vDispatchDelayed) {
		delay = 2 * time.Second
	}
	if !v.on(vDispatchQueued) {
		if v.on(vDispatchDelayed) {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
			}
		}
		return false
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Add(-1)
		time.Sleep(delay)
		s.dispatch(context.WithValue(context.Background(), bgDelivery{}, true), w, st, kind, d)
	}()
	return true
}

// eventBody is a delivery's body under the payload settings.
func (s *Server) eventBody(p eventPayload) []byte {
	var body []byte
	switch {
	case s.variants.on(vWebhookPayloadShape):
		body, _ = json.Marshal(map[string]any{"event": p.Type, "id": p.ID, "sentAt": p.CreatedAt, "payload": p.Data})
	case s.variants.on(vWebhookPayloadFlat):
		body, _ = json.Marshal(map[string]any{"event_type": p.Type, "reference": p.Data.Reference, "card_id": p.Data.CardID,
			"amount": p.Data.Amount, "currency": p.Data.Currency, "occurred_at": p.CreatedAt})
	default:
		body, _ = json.Marshal(p)
	}
	return body
}

// redelivery is the second attempt's id and body ("" when none).
func (s *Server) redelivery(id string, body []byte) (string, []byte) {
	switch {
	case s.variants.on(vRedeliver):
		return id, body
	case s.variants.on(vRedeliverDistinct):
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			return id, body
		}
		m["attempt"] = 2
		if _, has := m["id"]; has {
			m["id"] = "evt_" + randHex(12)
		}
		b, _ := json.Marshal(m)
		return "evt_" + randHex(12), b
	}
	return "", nil
}

// signatureHeaders sign a delivery body under the signature settings.
func (s *Server) signatureHeaders(secret string, body []byte) (http.Header, string) {
	h := http.Header{}
	mac := func(msg []byte) []byte {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(msg)
		return m.Sum(nil)
	}
	switch {
	case s.variants.on(vUnsigned):
		return h, ""
	case s.variants.on(vSignatureTimestamped):
		t := strconv.FormatInt(time.Now().Unix(), 10)
		sig := "t=" + t + ",v1=" + hex.EncodeToString(mac([]byte(t+"."+string(body))))
		h.Set("X-Signature", sig)
		return h, sig
	case s.variants.on(vSignatureBase64):
		sig := base64.StdEncoding.EncodeToString(mac(body))
		h.Set("X-Webhook-Signature", sig)
		return h, sig
	}
	sig := sign(secret, body)
	h.Set("X-MPH-Signature", sig)
	return h, sig
}

// rewriteSimulation applies the simulation answer settings.
func (s *Server) rewriteSimulation(x map[string]any) {
	v := &s.variants
	if r, ok := x["skip_reason"].(string); ok && v.on(vSkipReasonSentences) {
		switch {
		case r == "no_webhook_url_configured":
			x["skip_reason"] = "No webhook URL is configured for this merchant"
		case strings.HasPrefix(r, "delivery_failed: HTTP "):
			x["skip_reason"] = "The receiver answered HTTP " + strings.TrimPrefix(r, "delivery_failed: HTTP ")
		case strings.HasPrefix(r, "delivery_failed: "):
			x["skip_reason"] = "The delivery failed: " + strings.TrimPrefix(r, "delivery_failed: ")
		}
	}
	if v.on(vSkipReasonAbsent) && x["dispatched"] == true {
		delete(x, "skip_reason")
	}
	switch u, _ := x["callback_url"].(string); {
	case v.on(vCallbackNull) && u == "":
		x["callback_url"] = nil
	case v.on(vCallbackNormalised) && u != "":
		x["callback_url"] = normaliseURL(u)
	}
}

// rewriteEnvelopeB applies the Envelope B settings of simulation and
// contact answers.
func (s *Server) rewriteEnvelopeB(rest string, top map[string]any) {
	d, _ := top["data"].(map[string]any)
	if d == nil {
		return
	}
	switch {
	case strings.HasSuffix(rest, "/simulate-webhook") && s.variants.on(vSimSuccessMirrors):
		top["success"] = d["dispatched"] == true
	case strings.HasSuffix(rest, "/contact") && s.variants.on(vContactQueued):
		d["success"], d["message"] = false, "Update queued with the card provider"
	}
}

// normaliseURL is u as RFC 3986 normalisation writes it: scheme and host in
// lower case, the default port dropped, an empty path as /.
func normaliseURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	if (p.Scheme == "http" && p.Port() == "80") || (p.Scheme == "https" && p.Port() == "443") {
		p.Host = p.Hostname()
	}
	if p.Path == "" {
		p.Path = "/"
	}
	return p.String()
}

// simulationReference is a simulation's reference for event type et.
func (s *Server) simulationReference(et string) string {
	if s.variants.on(vSimRefRandom) {
		return "SIMULATE_" + strings.ToUpper(randHex(6))
	}
	return "SIMULATE_" + strings.ToUpper(et) + "_" + randHex(4)
}
