package variant

// Listings: only GET /cards/{id} is documented as real time; order, default
// filter, maximum limit and how search matches are not shown.
var (
	dListFreshness = declareDimension("read-freshness", []string{"OPEN-LISTING-FRESHNESS"},
		"How fresh GET /cards and GET /cards/customers are.",
		quote("data = Card (balance is real-time)"),
		"listings-real-time", "Listings show every write at once.")
	ListLag = dListFreshness.setting("listings-lag-2s", "Listings and searches come from an index refreshed every 2 seconds: a write shows there up to 2 s later.",
		`only GET /cards/{id} is "real-time"; the freshness of listings is not stated`, "", false)

	dVaultFreshness = declareDimension("vault-balance-freshness", []string{"OPEN-VAULT-FRESHNESS"},
		"How fresh the configuration's vaultBalance is.",
		quote("vaultBalance | number | available unspent balance of the merchant USD vault"),
		"vault-balance-real-time", "vaultBalance shows every write at once.")
	VaultLag = dVaultFreshness.setting("vault-balance-lag-2s", "vaultBalance comes from a ledger replica refreshed every 2 seconds.",
		`"vaultBalance | available unspent balance" (real time is stated for the card balance only)`, "", false)

	dListOrder = declareDimension("list-order", []string{"OPEN-LIST-ORDER"},
		"The order of GET /cards.",
		quote("data = array of Card"),
		"list-newest-first", "Newest first.")
	ListOldestFirst = dListOrder.setting("list-oldest-first", "GET /cards lists the oldest cards first.",
		`GET /cards: "data = array of Card" (order not shown)`, "", false)
	ListByName = dListOrder.setting("list-by-name", "GET /cards lists cards by nameOnCard, then id.",
		`GET /cards: "data = array of Card" (order not shown)`, "", false)

	dListDefault = declareDimension("list-default-status", []string{"OPEN-LIST-DEFAULT-STATUS"},
		"The status filter of GET /cards without status.",
		quote("status | string | ACTIVE, FROZEN or ALL"),
		"list-default-all", "Without status, every card is listed.")
	ListDefaultActive = dListDefault.setting("list-default-active-only", "GET /cards without status lists ACTIVE cards only.",
		`status "ACTIVE, FROZEN or ALL" is optional; its default is not shown`, "", false)

	dListMax = declareDimension("list-max-limit", []string{"OPEN-LIST-MAX-LIMIT"},
		"The largest limit GET /cards accepts.",
		quote("limit | number | maximum records returned; default 50"),
		"list-max-limit-100", "limit up to 100; above, 400.")
	ListMax50 = dListMax.setting("list-max-limit-50", "GET /cards refuses a limit above 50 (the default is also the maximum).",
		`"limit | maximum records returned; default 50" (the maximum is not shown)`, "", false)
	ListClamp50 = dListMax.setting("list-limit-clamped-50", "GET /cards accepts any limit but returns at most 50 cards.",
		`"limit | maximum records returned; default 50" (the maximum is not shown)`, "", false)

	dSearchTarget = declareDimension("search-name", []string{"OPEN-SEARCH-NAME"},
		"Which name the search matches as the cardholder name.",
		quote("search | string | matches cardholder name, reference, or last 4 digits of the PAN"),
		"search-name-on-card", "The cardholder name is the card's nameOnCard.")
	SearchCustomerName = dSearchTarget.setting("search-customer-name", "The cardholder name is the customer's firstName and lastName (the document's cardholder is the customer).",
		`"matches cardholder name"; "register cardholder customer"`, "", false)

	SearchMatch = declareDimension("search-match", []string{"OPEN-SEARCH-MATCH"},
		"How search matches a name or reference.",
		quote("search | string | matches cardholder name, reference, or last 4 digits of the PAN"),
		"search-substring", "A case-insensitive substring of the name or reference; the last 4 digits exactly.")
	ListSearchExact = SearchMatch.setting("list-search-exact", "GET /cards?search matches a whole name, reference or last 4 digits (case-insensitive), not a substring.",
		`search "matches cardholder name, reference, or last 4 digits of the PAN" (how it matches is not shown)`, "", false)
	SearchPrefix = SearchMatch.setting("search-prefix", "search matches the beginning of the name or reference (case-insensitive).",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
	SearchAnyWord = SearchMatch.setting("search-any-word", "search matches a card when any word of it is a word of the name or reference (a tokenised full-text index).",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
	SearchCase = SearchMatch.setting("search-case-sensitive", "search matches a substring of the name or reference, case-sensitively.",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
)
