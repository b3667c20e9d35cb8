package fault

// Faults of the area "Rate limits" (the registry: fault.go).

var (
	RateLimitBare = declare("Rate limits", "rate-limit-bare-429", "429 answers are plain text instead of the error envelope.",
		"RATE-02", "ERR-01")
	RateLimitNever = declare("Rate limits", "rate-limit-never", "The rate limiter never refuses a call: no 429 however fast the calls come.",
		"RATE-01")
	RateLimitNoRefill = declare("Rate limits", "rate-limit-no-refill", "Once refused, a caller stays refused: backing off never helps.",
		"RATE-03")
)
