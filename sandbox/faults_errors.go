package sandbox

// Faults of the area "Errors" (the registry: faults.go).

var (
	fBearerMsgVague = declareFault("Errors", "bearer-401-message-vague", "The 401 for a missing or invalid bearer token says Unauthorized without asking for the bearer token.",
		"ERR-15")
	fErrorEnvelopeNoPath = declareFault("Errors", "error-envelope-no-path", "Error envelopes omit the path field.",
		"ERR-01")
	fErrReasonWrong = declareFault("Errors", "error-reason-phrase-wrong", "The error envelope's error is \"Bad Request\" whatever the HTTP status.",
		"ERR-03")
	fErrStatusCode400 = declareFault("Errors", "error-status-code-400", "The error envelope's statusCode is 400 whatever the HTTP status.",
		"ERR-02")
	fErrTimestampHTTPDate = declareFault("Errors", "error-timestamp-http-date", "The error envelope's timestamp is an HTTP date (Mon, 02 Jan 2006 15:04:05 GMT), not ISO 8601.",
		"ENV-05")
	fMalformedJSON422 = declareFault("Errors", "malformed-json-422", "A request body that is not valid JSON is answered 422 instead of 400.",
		"ERR-22", "ERR-07")
	fValidationNotArray = declareFault("Errors", "validation-message-not-array", "Payload validation failures carry one joined string instead of an array of strings.",
		"ERR-04")
)
