package variant

// Refusals: which error each endpoint returns for its other failure
// conditions is not shown, nor the order in which a server checks.
var (
	dWithdrawAbove = declareDimension("withdraw-above-balance", []string{"OPEN-WITHDRAW-ABOVE-BALANCE"},
		"The status refusing a withdrawal above the card balance.",
		quote("Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance or an invalid status value): not shown"),
		"withdraw-above-balance-400", "400 with the error envelope.")
	WithdrawAbove422 = dWithdrawAbove.setting("withdraw-above-balance-422", "A withdrawal above the card balance is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance ...): not shown"`,
		"errors:\n  status:\n    withdrawAboveBalance: 422\n", true)
	WithdrawAbove409 = dWithdrawAbove.setting("withdraw-above-balance-409", "A withdrawal above the card balance is refused with 409.",
		`"Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance ...): not shown"`, "", true)

	dFrozenSecure = declareDimension("frozen-secure", []string{"OPEN-SECURE-NON-ACTIVE"},
		"The status refusing the secure details of a FROZEN card.",
		quote("Applies to an active card"),
		"frozen-secure-400", "400 with the error envelope.")
	FrozenSecure403 = dFrozenSecure.setting("frozen-secure-403", "GET /cards/{id}/secure of a FROZEN card is refused with 403.",
		`GET /cards/{id}/secure: "Applies to an active card" (the error for another card is not shown)`,
		"errors:\n  status:\n    frozenCardSecure: 403\n", true)
	FrozenSecure409 = dFrozenSecure.setting("frozen-secure-409", "GET /cards/{id}/secure of a FROZEN card is refused with 409.",
		`GET /cards/{id}/secure: "Applies to an active card"`, "", true)
	FrozenSecure423 = dFrozenSecure.setting("frozen-secure-423", "GET /cards/{id}/secure of a FROZEN card is refused with 423 Locked.",
		`GET /cards/{id}/secure: "Applies to an active card"`, "", true)

	dInvalidValue = declareDimension("invalid-value-status", []string{"OPEN-INVALID-VALUE"},
		"The status refusing a value outside its documented set.",
		quote("Which error each individual endpoint returns for its other failure conditions (for example ... an invalid status value): not shown"),
		"invalid-value-400", "400 with a constraint-violation array.")
	InvalidValue422 = dInvalidValue.setting("invalid-value-422", "A value outside its documented set (status, event_type, idType, list status) is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example ... an invalid status value): not shown"`,
		"errors:\n  status:\n    invalidValue: 422\n", true)

	dEmptyEnum = declareDimension("empty-enum-value", []string{"OPEN-VALIDATION-SCOPE", "OPEN-INVALID-VALUE"},
		"Whether an empty string for status or event_type is a missing value or an invalid one.",
		quote("for example a message that a field should not be empty", "an invalid status value): not shown"),
		"empty-enum-as-missing", "\"\" is refused like a missing member: 400 [\"status should not be empty\"].")
	EmptyEnumInvalid = dEmptyEnum.setting("empty-enum-as-invalid-value", "\"\" for status or event_type is refused like any invalid value: 400 with one string, \"status must be ACTIVE or FROZEN\".",
		`"an invalid status value): not shown" ("" is not one of the values)`, "", false)

	dWrongType = declareDimension("wrong-type-message", []string{"OPEN-VALIDATION-SCOPE"},
		"Whether a member of the wrong JSON type is refused with an array or one string.",
		quote("400 | missing parameters, malformed payload", "an array of constraint-violation strings when payload validation fails"),
		"wrong-type-array", "A member of the wrong type is a constraint violation (an array message).")
	WrongTypeString = dWrongType.setting("wrong-type-string-message", "A member of the wrong JSON type is a malformed payload: 400 with one string message.",
		`"400 | ... malformed payload" (a wrong type may be malformed rather than invalid)`, "", true)

	dSameStatus = declareDimension("same-status", []string{"OPEN-SAME-STATUS"},
		"PATCH status to the card's current status.",
		quote("ACTIVE | PATCH /cards/{id}/status with status=FROZEN | card exists | FROZEN"),
		"status-same-ok", "200, nothing changes.")
	StatusSameRefused = dSameStatus.setting("status-same-refused", "PATCH status to the card's current status is refused with 400 (\"already FROZEN\").",
		`States: only ACTIVE -> FROZEN and FROZEN -> ACTIVE are shown; other failure conditions: not shown`, "", false)
	StatusSame409 = dSameStatus.setting("status-same-409", "PATCH status to the card's current status is refused with 409.",
		`States: only ACTIVE -> FROZEN and FROZEN -> ACTIVE are shown`, "", false)

	dWithdrawFrozen = declareDimension("frozen-card-writes", []string{"OPEN-FROZEN-CARD-OPERATIONS"},
		"Whether a FROZEN card can be swept.",
		quote("new authorizations and transactions are refused at once; card is not terminated and the balance is kept"),
		"withdraw-frozen-allowed", "A withdrawal from a FROZEN card is served (a sweep is not a card transaction).")
	WithdrawFrozenRefused = dWithdrawFrozen.setting("withdraw-frozen-refused", "A withdrawal from a FROZEN card is refused with 403, whatever the amount.",
		`FROZEN: "new authorizations and transactions are refused"; whether a sweep is: not shown`, "", false)

	dLimitsFrozen = declareDimension("limits-frozen-card", []string{"OPEN-FROZEN-CARD-OPERATIONS"},
		"Whether a FROZEN card's spend limits can be set.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"limits-frozen-allowed", "Spend limits of a FROZEN card can be set.")
	LimitsFrozenRefused = dLimitsFrozen.setting("limits-frozen-refused", "Setting spend limits on a FROZEN card is refused with 403.",
		`Other failure conditions of each endpoint: not shown`, "", false)

	dCardDup = declareDimension("duplicate-reference", []string{"OPEN-DUPLICATE-REFERENCE"},
		"A second issuance with an existing card reference.",
		quote("409 | duplicate idempotency reference"),
		"card-duplicate-409", "409 conflict.")
	CardDupReplay = dCardDup.setting("card-duplicate-reference-replay", "A second issuance with an existing card reference replays the original card (200) instead of 409.",
		`409: "duplicate idempotency reference" (an idempotent replay is the other common meaning)`, "", false)

	dRequestCT = declareDimension("request-content-type", []string{"OPEN-REQUEST-CONTENT-TYPE"},
		"The answer to a body not labelled application/json.",
		quote("Requests with a body use Content-Type: application/json"),
		"request-content-type-400", "400 \"Content-Type must be application/json\".")
	CTAnyParsed = dRequestCT.setting("request-content-type-ignored", "A body is parsed as JSON whatever its Content-Type (express.json({type: '*/*'})).",
		`"Requests with a body use Content-Type: application/json" (a rule for clients; the server's answer to another type is not shown)`, "", false)
	CT415 = dRequestCT.setting("request-content-type-415", "A body not labelled application/json is refused with 415 Unsupported Media Type.",
		`"Requests with a body use Content-Type: application/json"`, "", true)

	dNumericStrings = declareDimension("numeric-strings", []string{"OPEN-INPUT-FORM-REFUSAL"},
		"Whether an amount sent as a numeric string (\"1.00\") is refused.",
		quote("amount (number, required, USD, minimum 0.10)"),
		"numeric-strings-refused", "\"1.00\" is refused: amount must be a number.")
	NumericStrings = dNumericStrings.setting("numeric-strings-accepted", "Amounts and limits sent as numeric strings (\"1.00\") are read as numbers (Laravel's numeric rule).",
		`"amount (number ...)" (that another form is refused is not stated)`, "", false)

	dAmountPrecision = declareDimension("amount-precision", []string{"OPEN-AMOUNT-PRECISION"},
		"Whether an amount with more than two decimals is refused.",
		quote("amount (number, required, USD, minimum 0.10)", "balanceAmount | number"),
		"amounts-cents-only", "More than two decimals is refused (must have at most 2 decimal places).")
	AmountsRounded = dAmountPrecision.setting("amounts-rounded-to-cents", "Amounts and limits with more than two decimals are rounded half up to the cent.",
		`"amount (number ...)" (the precision accepted is not stated)`, "", false)

	dLimitValues = declareDimension("spend-limit-values", []string{"OPEN-AMOUNT-CAPS"},
		"What a zero or negative spend limit means.",
		quote("each an optional number in USD", "Maximum values for amounts and spend limits ...: not shown"),
		"spend-limits-positive", "A limit must be a positive number; 0 or less is refused.")
	LimitsLenient = dLimitValues.setting("spend-limits-non-positive-unsets", "A limit of 0 or less is accepted and unsets that limit.",
		`"each an optional number in USD" (bounds not shown)`, "", false)

	dCustomerCountry = declareDimension("input-forms", []string{"OPEN-COUNTRY-3-LETTER", "OPEN-INPUT-FORM-REFUSAL"},
		"Whether a registration country other than a 3-letter code is refused.",
		quote("a 3-letter country code"),
		"customer-country-3-letters", "Only a 3-letter code is accepted.")
	CountryAlpha2 = dCustomerCountry.setting("customer-country-2-letters-accepted", "A 2-letter country code is accepted too.",
		`"a 3-letter country code" (that others are refused is not stated)`, "", false)

	dCustomerDOB = declareDimension("customer-birth-date-form", []string{"OPEN-DATE-OF-BIRTH-FORM"},
		"Whether a date of birth other than YYYY-MM-DD is refused.",
		quote("a date of birth (YYYY-MM-DD)"),
		"customer-birth-date-extended", "Only YYYY-MM-DD is accepted.")
	DOBBasic = dCustomerDOB.setting("customer-birth-date-basic-accepted", "A date of birth in the ISO 8601 basic form (YYYYMMDD) is accepted too.",
		`"a date of birth (YYYY-MM-DD)" (that others are refused is not stated)`, "", false)

	dContactMobile = declareDimension("contact-mobile-form", []string{"OPEN-CONTACT-MOBILE-FORM"},
		"Whether a contact mobile in neither form is refused.",
		quote("mobile (string, optional; local form or international form with a leading +)"),
		"contact-mobile-checked", "A mobile in neither form is refused.")
	MobileUnchecked = dContactMobile.setting("contact-mobile-unchecked", "Any mobile string is passed to the card provider unchecked.",
		`"mobile (string, optional; local form or international form with a leading +)" (a refusal is not stated)`, "", false)

	dNullBody = declareDimension("empty-update", []string{"OPEN-EMPTY-UPDATE"},
		"Whether a JSON null body is malformed or empty.",
		quote("email (string, optional), mobile (string, optional) ... Only the supplied fields are updated"),
		"null-body-refused", "A null body is refused: the body must be a JSON object.")
	NullBodyNoop = dNullBody.setting("body-null-optional-noop", "A JSON null body reads as an empty object, and a contact update supplying no field is a no-op 200.",
		`PATCH contact: "email (string, optional), mobile (string, optional) ... Only the supplied fields are updated"`, "", false)

	dLongPath = declareDimension("malformed-id", []string{"OPEN-MALFORMED-ID"},
		"The answer to a very long identifier in the path.",
		quote("404 | card, customer or transaction does not exist"),
		"long-path-404", "404: no card has that id.")
	MalformedID400 = dLongPath.setting("malformed-id-400", "A card identifier that is neither a card id (crd_...) nor a valid reference (letters, digits, '.', '_', '-', at most 64) is refused with 400.",
		`"400 | missing parameters, malformed payload" (a malformed identifier may be refused before a lookup)`, "", false)
	LongPath414 = dLongPath.setting("long-path-414", "A request target longer than 2048 characters is refused with 414 URI Too Long (as most HTTP servers and proxies do).",
		`the document does not bound identifiers; 414 is standard HTTP for a long request target`, "", false)

	dLiveSimulation = declareDimension("live-simulation", []string{"OPEN-LIVE-SIMULATION"},
		"Which of the two documented statuses refuses a simulation with live credentials.",
		quote("With live credentials the request is rejected with 400 or 403"),
		"live-simulation-403", "403.")
	LiveSimCardFirst = dLiveSimulation.setting("live-simulation-card-first", "The card is looked up before the environment: a simulation with live credentials on a sandbox card answers 404 (the card does not exist in LIVE).",
		`"With live credentials the request is rejected with 400 or 403"; "404 | card ... does not exist" (the order of checks is not shown)`, "", false)
	LiveSim400 = dLiveSimulation.setting("live-simulation-400", "A simulation with live credentials is rejected with 400.",
		`"With live credentials the request is rejected with 400 or 403"`, "", true)

	dCheckAuth = declareDimension("check-order-auth", []string{"OPEN-ACCESS-CHECK-ORDER"},
		"What is checked before the bearer token.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-auth-first", "The token is checked before anything else.")
	ValidationBeforeAuth = dCheckAuth.setting("checks-body-before-auth", "A malformed body (not JSON, not an object, not declared JSON) is refused with 400 before the token is checked (a body parser in front of the guard).",
		`the order of checks is not shown; 400 "malformed payload" and 401 are both documented`, "", false)
	ExistenceBeforeAuth = dCheckAuth.setting("checks-existence-before-auth", "An identifier no merchant has (card, gift order) is answered 404 before the token is checked.",
		`the order of checks is not shown; 404 and 401 are both documented`, "", false)

	dCheckResource = declareDimension("check-order", []string{"OPEN-CHECK-ORDER"},
		"Whether the body or the addressed card is checked first.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-body-before-card", "The body is validated before the card is looked up (400 before 404).")
	NotFoundFirst = dCheckResource.setting("checks-card-before-body", "The card is looked up before the body is validated (404 before 400).",
		`the order of checks is not shown`, "", false)

	dCheckBusiness = declareDimension("check-order-business", []string{"OPEN-CHECK-ORDER"},
		"Whether issuance checks the customer and the vault before the rest of the body.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-validation-first", "Every field is validated before the customer and the vault are checked.")
	BusinessFirst = dCheckBusiness.setting("checks-business-before-validation", "Issuance looks up the customer (404) and checks the vault (scenario 1) as soon as customerId and amount are readable, before validating the other fields.",
		`the order of checks is not shown`, "", false)
)
