package fault

// Faults of the area "Webhooks and events" (the registry: fault.go).

var (
	WebhookFakeDispatch = declare("Webhooks and events", "webhook-claims-dispatch", "simulate-webhook answers dispatched true without delivering anything.",
		"WEBHOOK-09", "WEBHOOK-08")
	WebhookDeliveredKind = declare("Webhooks and events", "webhook-delivered-kind-wrong", "Delivered webhooks carry a bare kind (e.g. authorization) although the answer names the documented one.",
		"WEBHOOK-09", "WEBHOOK-03")
	WebhookEventTypeEchoed = declare("Webhooks and events", "webhook-event-type-echoed", "The simulation answer's event_type echoes the request (authorization) instead of naming the dispatched kind.",
		"WEBHOOK-03", "WEBHOOK-04", "WEBHOOK-05", "WEBHOOK-06")
	WebhookSkipReasonNull = declare("Webhooks and events", "webhook-skip-reason-null", "A simulation whose webhook was not sent answers skip_reason null instead of saying why.",
		"WEBHOOK-08")
	WebhookEventTypeUnchecked = declare("Webhooks and events", "webhook-event-type-unchecked", "simulate-webhook takes a missing or unknown event_type as authorization instead of refusing it.",
		"WEBHOOK-02")
	WebhookCallbackURLEmpty = declare("Webhooks and events", "webhook-callback-url-empty", "The simulation answer's callback_url is empty although a webhook URL is configured.",
		"WEBHOOK-10")
	WebhookLiveAllowed = declare("Webhooks and events", "webhook-live-allowed", "Webhook simulation with LIVE credentials is served instead of refused.",
		"WEBHOOK-11")
	WebhookRefPrefix = declare("Webhooks and events", "webhook-reference-prefix-wrong", "Simulation references start with SIM_ instead of SIMULATE_.",
		"WEBHOOK-07")
	WebhookReversalKind = declare("Webhooks and events", "webhook-reversal-kind-wrong", "Simulating reversal dispatches virtualcard.transaction.reversal instead of .reversed.",
		"WEBHOOK-05")
	WebhookTxnNotDelivered = declare("Webhooks and events", "webhook-txn-not-delivered", "Card transactions and settlements send no webhook to the configured URL.",
		"WEBHOOK-12")
)
