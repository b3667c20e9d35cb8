package sandbox

// Faults of the area "Card configuration" (the registry: faults.go).

var (
	fConfigEnvAlwaysTest = declareFault("Card configuration", "config-environment-always-test", "GET /cards/config says environment TEST also to LIVE credentials.",
		"CONFIG-09", "CONFIG-02")
	fConfigVaultStale = declareFault("Card configuration", "config-vault-stale", "GET /cards/config reports the seed vault balance, never the live one.",
		"CONFIG-08")
)
