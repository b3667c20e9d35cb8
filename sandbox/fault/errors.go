package fault

// Faults of the area "Errors" (the registry: fault.go).

var (
	BearerMsgVague = declare("Errors", "bearer-401-message-vague", "The 401 for a missing or invalid bearer token says Unauthorized without asking for the bearer token.",
		"ERR-15")
	ErrorEnvelopeNoPath = declare("Errors", "error-envelope-no-path", "Error envelopes omit the path field.",
		"ERR-01")
	ErrReasonWrong = declare("Errors", "error-reason-phrase-wrong", "The error envelope's error is \"Bad Request\" whatever the HTTP status.",
		"ERR-03")
	ErrStatusCode400 = declare("Errors", "error-status-code-400", "The error envelope's statusCode is 400 whatever the HTTP status.",
		"ERR-02")
	ErrTimestampHTTPDate = declare("Errors", "error-timestamp-http-date", "The error envelope's timestamp is an HTTP date (Mon, 02 Jan 2006 15:04:05 GMT), not ISO 8601.",
		"ENV-05")
	MalformedJSON422 = declare("Errors", "malformed-json-422", "A request body that is not valid JSON is answered 422 instead of 400.",
		"ERR-22", "ERR-07")
	ValidationNotArray = declare("Errors", "validation-message-not-array", "Payload validation failures carry one joined string instead of an array of strings.",
		"ERR-04")
)
