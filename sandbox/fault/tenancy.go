package fault

// Faults of the area "Tenant isolation" (the registry: fault.go).

var (
	CardCrossMerchantFreeze = declare("Tenant isolation", "card-cross-merchant-freeze", "PATCH /cards/{id}/status finds and changes another merchant's card by id.",
		"ISO-02")
	CardCrossMerchantLookup = declare("Tenant isolation", "card-cross-merchant-lookup", "Every card endpoint below /cards/{id} (secure, withdraw, spend limits, status, contact, simulation) finds another merchant's card by id.",
		"ISO-02")
	CrossMerchantCardRead = declare("Tenant isolation", "card-cross-merchant-read", "GET /cards/{id} returns a card of another merchant or environment instead of 404.",
		"ISO-01", "ERR-10")
	ListTenantLeak = declare("Tenant isolation", "card-list-tenant-leak", "GET /cards also lists other merchants' cards of the same environment.",
		"ISO-04")
	CustListTenantLeak = declare("Tenant isolation", "customer-list-tenant-leak", "GET /cards/customers also lists other merchants' customers.",
		"ISO-05")
	GiftVerifyTenantLeak = declare("Tenant isolation", "gift-verify-tenant-leak", "Verify finds (and reconciles) another merchant's gift order.",
		"ISO-03")
)
