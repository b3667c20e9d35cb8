package variant

// Webhooks: payload shape, signature, retries and configuration are "not
// shown"; "dispatched is true when sent" leaves open whether handing the
// event to a delivery queue is sending it.
var (
	dDispatch = declareDimension("dispatch-meaning", []string{"OPEN-DISPATCH-MEANING"},
		"When a delivery happens and what dispatched says about it.",
		quote("dispatched is true when sent; otherwise skip_reason explains why", "Retry behaviour of deliveries: not shown"),
		"webhook-dispatch-synchronous", "The event is delivered before the answer; dispatched says whether the receiver took it.")
	DispatchQueued = dDispatch.setting("webhook-dispatch-queued", "dispatched is true once the event is queued; the delivery follows 200 ms later, and its failure is not reported.",
		`"dispatched is true when sent" (sent to a delivery queue is a reading); "Retry behaviour of deliveries: not shown"`, "", false)

	dDeliveryTiming = declareDimension("delivery-timing", []string{"OPEN-DELIVERY-TIMING"},
		"How long after the event a delivery leaves.",
		quote("Retry behaviour of deliveries: not shown"),
		"webhook-delivery-immediate", "At once.")
	DispatchDelayed = dDeliveryTiming.setting("webhook-delivery-delayed-2s", "A delivery leaves 2 seconds after the event (queued: after the answer; not queued: the answer waits).",
		`delivery timing is not shown`, "", false)

	dRedelivery = declareDimension("delivery-retries", []string{"OPEN-DELIVERY-RETRIES"},
		"How often a delivery is repeated.",
		quote("Retry behaviour of deliveries: not shown"),
		"webhook-delivered-once", "Each event is delivered once.")
	Redeliver = dRedelivery.setting("webhook-redelivery", "Every webhook is delivered twice (at-least-once delivery).",
		`"Retry behaviour of deliveries: not shown"`, "", false)
	RedeliverDistinct = dRedelivery.setting("webhook-redelivery-new-id", "Every webhook is delivered twice, the second attempt with a new delivery id and attempt: 2 in its body.",
		`"Retry behaviour of deliveries: not shown"`, "", false)

	dPayload = declareDimension("delivery-payload", []string{"OPEN-DELIVERY-PAYLOAD"},
		"The body of a delivered event.",
		quote("Payload shape of delivered events: not shown"),
		"webhook-payload-type-data", "{id, type, createdAt, environment, merchantId, data: {reference, cardId, ...}}.")
	WebhookPayloadShape = dPayload.setting("webhook-payload-shape", "Delivered events carry the kind in event and the data under payload.",
		`"Payload shape of delivered events: not shown"`,
		"webhooks:\n  deliveryKindPointer: /event\n  deliveryReferencePointer: /payload/reference\n", false)
	WebhookPayloadFlat = dPayload.setting("webhook-payload-flat", "Delivered events are flat: {event_type, reference, card_id, amount, currency, occurred_at}.",
		`"Payload shape of delivered events: not shown"`, "", false)

	dSignature = declareDimension("delivery-signature", []string{"OPEN-DELIVERY-SIGNATURE"},
		"How deliveries are signed, if at all.",
		quote("Signature or authenticity check of deliveries: not shown"),
		"webhook-signature-hmac-hex", "X-MPH-Signature: sha256=<hex HMAC-SHA256 of the body>.")
	Unsigned = dSignature.setting("webhook-unsigned", "Deliveries carry no signature.",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)
	SignatureTimestamped = dSignature.setting("webhook-signature-timestamped", "Deliveries carry X-Signature: t=<unix>,v1=<hex HMAC of \"t.body\"> (Stripe's scheme).",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)
	SignatureBase64 = dSignature.setting("webhook-signature-base64", "Deliveries carry X-Webhook-Signature: <base64 HMAC-SHA256 of the body>.",
		`"Signature or authenticity check of deliveries: not shown"`, "", false)

	dSkipReason = declareDimension("skip-reason", []string{"OPEN-SKIP-REASON-VALUES"},
		"The text of skip_reason.",
		quote("Values of skip_reason: not shown"),
		"skip-reason-codes", "null when dispatched; codes otherwise: no_webhook_url_configured, delivery_failed: HTTP 500.")
	SkipReasonSentences = dSkipReason.setting("skip-reason-sentences", "skip_reason is a sentence: \"No webhook URL is configured for this merchant\", \"The receiver answered HTTP 500\".",
		`"Values of skip_reason: not shown"`, "", true)

	dSimMembers = declareDimension("webhook-url", []string{"OPEN-CALLBACK-URL-PRESENCE", "OPEN-CALLBACK-URL-FORM"},
		"How the simulation answer shows the webhook URL.",
		quote("callback_url (string), dispatched (boolean), skip_reason (string or null)", "Configuration of the webhook URL: not shown"),
		"callback-url-as-configured", "callback_url is the configured URL as given, \"\" when none is configured.")
	SkipReasonEmpty = dSkipReason.setting("webhook-skip-reason-empty", "A dispatched simulation answers skip_reason \"\" instead of null.",
		`"skip_reason (string or null)"; "dispatched is true when sent; otherwise skip_reason explains why"`, "", false)
	SkipReasonAbsent = dSkipReason.setting("webhook-skip-reason-absent", "A dispatched simulation has no skip_reason member.",
		`"otherwise skip_reason explains why" (needed when not dispatched)`, "", true)
	CallbackNull = dSimMembers.setting("webhook-callback-url-null", "Without a configured webhook URL the simulation answers callback_url: null.",
		`"Configuration of the webhook URL: not shown"`, "", true)
	CallbackNormalised = dSimMembers.setting("callback-url-normalised", "callback_url echoes the configured URL normalised: host in lower case, default port dropped, an empty path as /.",
		`"callback_url (string)" (that it is byte-identical to the configured URL is not stated)`, "", true)

	dSimReference = declareDimension("simulation-reference", []string{"OPEN-SIMULATION-REFERENCE-FORM"},
		"What follows SIMULATE_ in a simulation's reference.",
		quote("The simulation's reference is a string that starts with SIMULATE_ for the kind"),
		"simulate-reference-kind-and-random", "SIMULATE_<EVENT_TYPE>_<random>.")
	SimRefRandom = dSimReference.setting("simulate-reference-random", "SIMULATE_<random> (the kind is not repeated in the reference).",
		`"starts with SIMULATE_ for the kind" (what follows is not stated)`, "", false)

	dSimSuccess = declareDimension("envelope-b-success", []string{"OPEN-ENVELOPE-B-SUCCESS"},
		"What the success booleans of Envelope B answers say.",
		quote("Envelope B (webhook simulation, card contact update): success (boolean)", "data = success (boolean), message (string)"),
		"envelope-b-success-true", "success (and the contact answer's data.success) is true on every 200.")
	SimSuccessMirrors = dSimSuccess.setting("simulation-success-mirrors-dispatch", "success is false when the webhook was not dispatched.",
		`"success (boolean)" (its meaning is not stated)`, "", true)

	ContactQueued = dSimSuccess.setting("contact-update-queued", "data.success is false with \"Update queued with the card provider\" (the provider confirms later).",
		`"data = success (boolean), message (string)" (that success is true is not stated)`, "", true)
)
