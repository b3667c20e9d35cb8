package sandbox

// Faults of the area "One card and secure details" (the registry: faults.go).

var (
	fRefLookupBroken = declareFault("One card and secure details", "card-reference-lookup-broken", "Cards can be addressed by id only: a card's reference in the path gives 404.",
		"GET-02")
	fSecureRevealsFrozen = declareFault("One card and secure details", "card-secure-reveals-frozen", "GET /cards/{id}/secure reveals credentials of a FROZEN card.",
		"SECURE-01")
	fSecureExpMismatch = declareFault("One card and secure details", "secure-expiration-date-mismatch", "Secure details' expirationDate is MM/YY of the issuance year, disagreeing with expiryYear.",
		"SECURE-09")
)
