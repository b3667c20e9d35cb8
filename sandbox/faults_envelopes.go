package sandbox

// Faults of the area "Envelopes and versioning" (the registry: faults.go).

var (
	fEnvAStatusOK = declareFault("Envelopes and versioning", "envelope-a-status-ok", "Envelope A carries status \"ok\" instead of \"success\".",
		"ENV-01")
	fEnvBSuccessString = declareFault("Envelopes and versioning", "envelope-b-success-string", "Envelope B carries success as the string \"true\" instead of a boolean.",
		"ENV-03")
	fEnvPathNoRoot = declareFault("Envelopes and versioning", "envelope-path-no-version-root", "Envelope A echoes the path below the base (/cards/...), without /v1/merchant.",
		"ENV-08", "VER-03")
	fGiftVerifyEnveloped = declareFault("Envelopes and versioning", "gift-verify-enveloped", "Gift order verification wraps the order in Envelope A data instead of answering flat.",
		"ENV-04")
)
