package fault

// Faults of the area "Card listing" (the registry: fault.go).

var (
	ListIgnoresLimit = declare("Card listing", "card-list-ignores-limit", "GET /cards ignores the limit parameter and returns every card.",
		"LIST-08")
	ListNoDefaultLimit = declare("Card listing", "card-list-no-default-limit", "GET /cards without limit returns every card instead of at most 50.",
		"LIST-09")
	ListSearchNoLast4 = declare("Card listing", "card-list-search-ignores-last4", "GET /cards?search matches name and reference but not the last 4 digits of the PAN.",
		"LIST-07")
	ListStatusIgnored = declare("Card listing", "card-list-status-filter-ignored", "GET /cards?status=ACTIVE or FROZEN returns cards of both statuses.",
		"LIST-02", "LIST-03")
	ListAllActiveOnly = declare("Card listing", "card-list-all-active-only", "GET /cards?status=ALL returns the ACTIVE cards only.",
		"LIST-04")
)
