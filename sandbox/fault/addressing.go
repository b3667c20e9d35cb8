package fault

// Faults of the area "Card addressing and messages" (the registry: fault.go).

var (
	CreatedStatusPending = declare("Card addressing and messages", "card-created-status-pending", "Cards carry createdStatus PENDING instead of COMPLETED.",
		"GET-13")
	CardLeaksCredentials = declare("Card addressing and messages", "card-get-leaks-credentials", "GET /cards/{id} also carries the full card number and the CVV.",
		"SECURE-11")
	NotFoundMsgGeneric = declare("Card addressing and messages", "card-not-found-message-generic", "The 404 of an unknown card on every endpoint but GET /cards/{id} says only \"Request could not be completed\".",
		"ERR-18")
	RefWritesBroken = declare("Card addressing and messages", "card-writes-by-reference-404", "Withdraw, status and spend limits find cards by id only: a reference gives 404 (reads by reference still work).",
		"GET-02", "WITHDRAW-01", "STATUS-01")
	LimitsResetOnUpdate = declare("Card addressing and messages", "limits-reset-on-update", "PUT spend-limits sets the limits not supplied to 1000.00 instead of keeping (or unsetting) them.",
		"LIMITS-02")
)
