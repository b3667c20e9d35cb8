package fault

var (
	EnvAStatusOK = declare("Envelopes and versioning", "envelope-a-status-ok", "Envelope A carries status \"ok\" instead of \"success\".",
		"ENV-01")
	EnvBSuccessString = declare("Envelopes and versioning", "envelope-b-success-string", "Envelope B carries success as the string \"true\" instead of a boolean.",
		"ENV-03")
	EnvPathNoRoot = declare("Envelopes and versioning", "envelope-path-no-version-root", "Envelope A echoes the path below the base (/cards/...), without /v1/merchant.",
		"ENV-08", "VER-03")
	JSONAsTextPlain = declare("Envelopes and versioning", "envelope-json-as-text-plain", "JSON answers are labelled Content-Type text/plain instead of application/json.",
		"ENV-07")
	GiftVerifyEnveloped = declare("Envelopes and versioning", "gift-verify-enveloped", "Gift order verification wraps the order in Envelope A data instead of answering flat.",
		"ENV-04")
)
