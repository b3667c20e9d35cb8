package sandbox

// Faults of the area "Tenant isolation" (the registry: faults.go).

var (
	fCardCrossMerchantFreeze = declareFault("Tenant isolation", "card-cross-merchant-freeze", "PATCH /cards/{id}/status finds and changes another merchant's card by id.",
		"ISO-02")
	fCardCrossMerchantLookup = declareFault("Tenant isolation", "card-cross-merchant-lookup", "Every card endpoint below /cards/{id} (secure, withdraw, spend limits, status, contact, simulation) finds another merchant's card by id.",
		"ISO-02")
	fCrossMerchantCardRead = declareFault("Tenant isolation", "card-cross-merchant-read", "GET /cards/{id} returns a card of another merchant or environment instead of 404.",
		"ISO-01", "ERR-10")
	fListTenantLeak = declareFault("Tenant isolation", "card-list-tenant-leak", "GET /cards also lists other merchants' cards of the same environment.",
		"ISO-04")
	fCustListTenantLeak = declareFault("Tenant isolation", "customer-list-tenant-leak", "GET /cards/customers also lists other merchants' customers.",
		"ISO-05")
	fGiftVerifyTenantLeak = declareFault("Tenant isolation", "gift-verify-tenant-leak", "Verify finds (and reconciles) another merchant's gift order.",
		"ISO-03")
)
