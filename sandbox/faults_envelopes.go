package sandbox

import "net/http"

// Faults of the area "Envelopes and versioning" (the registry: faults.go).

var (
	fEnvAStatusOK = declareFault("Envelopes and versioning", "envelope-a-status-ok", "Envelope A carries status \"ok\" instead of \"success\".",
		"ENV-01")
	fEnvBSuccessString = declareFault("Envelopes and versioning", "envelope-b-success-string", "Envelope B carries success as the string \"true\" instead of a boolean.",
		"ENV-03")
	fEnvPathNoRoot = declareFault("Envelopes and versioning", "envelope-path-no-version-root", "Envelope A echoes the path below the base (/cards/...), without /v1/merchant.",
		"ENV-08", "VER-03")
	fJSONAsTextPlain = declareFault("Envelopes and versioning", "envelope-json-as-text-plain", "JSON answers are labelled Content-Type text/plain instead of application/json.",
		"ENV-07")
	fGiftVerifyEnveloped = declareFault("Envelopes and versioning", "gift-verify-enveloped", "Gift order verification wraps the order in Envelope A data instead of answering flat.",
		"ENV-04")
)

// textPlainWriter relabels every answer text/plain (fault envelope-json-as-text-plain).
type textPlainWriter struct{ http.ResponseWriter }

func (w textPlainWriter) WriteHeader(code int) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.ResponseWriter.WriteHeader(code)
}
