package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"regexp"
	"strings"
)

// Refusals: which error each endpoint returns for its other failure
// conditions is not shown, nor the order in which a server checks.
var (
	dWithdrawAbove = declareDimension("withdraw-above-balance", []string{"OPEN-WITHDRAW-ABOVE-BALANCE"},
		"The status refusing a withdrawal above the card balance.",
		quote("Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance or an invalid status value): not shown"),
		"withdraw-above-balance-400", "400 with the error envelope.")
	vWithdrawAbove422 = dWithdrawAbove.setting("withdraw-above-balance-422", "A withdrawal above the card balance is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance ...): not shown"`,
		"errors:\n  status:\n    withdrawAboveBalance: 422\n", true)
	vWithdrawAbove409 = dWithdrawAbove.setting("withdraw-above-balance-409", "A withdrawal above the card balance is refused with 409.",
		`"Which error each individual endpoint returns for its other failure conditions (for example a withdrawal above the card balance ...): not shown"`, "", true)

	dFrozenSecure = declareDimension("frozen-secure", []string{"OPEN-SECURE-NON-ACTIVE"},
		"The status refusing the secure details of a FROZEN card.",
		quote("Applies to an active card"),
		"frozen-secure-400", "400 with the error envelope.")
	vFrozenSecure403 = dFrozenSecure.setting("frozen-secure-403", "GET /cards/{id}/secure of a FROZEN card is refused with 403.",
		`GET /cards/{id}/secure: "Applies to an active card" (the error for another card is not shown)`,
		"errors:\n  status:\n    frozenCardSecure: 403\n", true)
	vFrozenSecure409 = dFrozenSecure.setting("frozen-secure-409", "GET /cards/{id}/secure of a FROZEN card is refused with 409.",
		`GET /cards/{id}/secure: "Applies to an active card"`, "", true)
	vFrozenSecure423 = dFrozenSecure.setting("frozen-secure-423", "GET /cards/{id}/secure of a FROZEN card is refused with 423 Locked.",
		`GET /cards/{id}/secure: "Applies to an active card"`, "", true)

	dInvalidValue = declareDimension("invalid-value-status", []string{"OPEN-INVALID-VALUE"},
		"The status refusing a value outside its documented set.",
		quote("Which error each individual endpoint returns for its other failure conditions (for example ... an invalid status value): not shown"),
		"invalid-value-400", "400 with a constraint-violation array.")
	vInvalidValue422 = dInvalidValue.setting("invalid-value-422", "A value outside its documented set (status, event_type, idType, list status) is refused with 422.",
		`"Which error each individual endpoint returns for its other failure conditions (for example ... an invalid status value): not shown"`,
		"errors:\n  status:\n    invalidValue: 422\n", true)

	dEmptyEnum = declareDimension("empty-enum-value", []string{"OPEN-VALIDATION-SCOPE", "OPEN-INVALID-VALUE"},
		"Whether an empty string for status or event_type is a missing value or an invalid one.",
		quote("for example a message that a field should not be empty", "an invalid status value): not shown"),
		"empty-enum-as-missing", "\"\" is refused like a missing member: 400 [\"status should not be empty\"].")
	vEmptyEnumInvalid = dEmptyEnum.setting("empty-enum-as-invalid-value", "\"\" for status or event_type is refused like any invalid value: 400 with one string, \"status must be ACTIVE or FROZEN\".",
		`"an invalid status value): not shown" ("" is not one of the values)`, "", false)

	dWrongType = declareDimension("wrong-type-message", []string{"OPEN-VALIDATION-SCOPE"},
		"Whether a member of the wrong JSON type is refused with an array or one string.",
		quote("400 | missing parameters, malformed payload", "an array of constraint-violation strings when payload validation fails"),
		"wrong-type-array", "A member of the wrong type is a constraint violation (an array message).")
	vWrongTypeString = dWrongType.setting("wrong-type-string-message", "A member of the wrong JSON type is a malformed payload: 400 with one string message.",
		`"400 | ... malformed payload" (a wrong type may be malformed rather than invalid)`, "", true)

	dSameStatus = declareDimension("same-status", []string{"OPEN-SAME-STATUS"},
		"PATCH status to the card's current status.",
		quote("ACTIVE | PATCH /cards/{id}/status with status=FROZEN | card exists | FROZEN"),
		"status-same-ok", "200, nothing changes.")
	vStatusSameRefused = dSameStatus.setting("status-same-refused", "PATCH status to the card's current status is refused with 400 (\"already FROZEN\").",
		`States: only ACTIVE -> FROZEN and FROZEN -> ACTIVE are shown; other failure conditions: not shown`, "", false)
	vStatusSame409 = dSameStatus.setting("status-same-409", "PATCH status to the card's current status is refused with 409.",
		`States: only ACTIVE -> FROZEN and FROZEN -> ACTIVE are shown`, "", false)

	dWithdrawFrozen = declareDimension("frozen-card-writes", []string{"OPEN-FROZEN-CARD-OPERATIONS"},
		"Whether a FROZEN card can be swept.",
		quote("new authorizations and transactions are refused at once; card is not terminated and the balance is kept"),
		"withdraw-frozen-allowed", "A withdrawal from a FROZEN card is served (a sweep is not a card transaction).")
	vWithdrawFrozenRefused = dWithdrawFrozen.setting("withdraw-frozen-refused", "A withdrawal from a FROZEN card is refused with 403, whatever the amount.",
		`FROZEN: "new authorizations and transactions are refused"; whether a sweep is: not shown`, "", false)

	dLimitsFrozen = declareDimension("limits-frozen-card", []string{"OPEN-FROZEN-CARD-OPERATIONS"},
		"Whether a FROZEN card's spend limits can be set.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"limits-frozen-allowed", "Spend limits of a FROZEN card can be set.")
	vLimitsFrozenRefused = dLimitsFrozen.setting("limits-frozen-refused", "Setting spend limits on a FROZEN card is refused with 403.",
		`Other failure conditions of each endpoint: not shown`, "", false)

	dCardDup = declareDimension("duplicate-reference", []string{"OPEN-DUPLICATE-REFERENCE"},
		"A second issuance with an existing card reference.",
		quote("409 | duplicate idempotency reference"),
		"card-duplicate-409", "409 conflict.")
	vCardDupReplay = dCardDup.setting("card-duplicate-reference-replay", "A second issuance with an existing card reference replays the original card (200) instead of 409.",
		`409: "duplicate idempotency reference" (an idempotent replay is the other common meaning)`, "", false)

	dRequestCT = declareDimension("request-content-type", []string{"OPEN-REQUEST-CONTENT-TYPE"},
		"The answer to a body not labelled application/json.",
		quote("Requests with a body use Content-Type: application/json"),
		"request-content-type-400", "400 \"Content-Type must be application/json\".")
	vCTAnyParsed = dRequestCT.setting("request-content-type-ignored", "A body is parsed as JSON whatever its Content-Type (express.json({type: '*/*'})).",
		`"Requests with a body use Content-Type: application/json" (a rule for clients; the server's answer to another type is not shown)`, "", false)
	vCT415 = dRequestCT.setting("request-content-type-415", "A body not labelled application/json is refused with 415 Unsupported Media Type.",
		`"Requests with a body use Content-Type: application/json"`, "", true)

	dNumericStrings = declareDimension("numeric-strings", []string{"OPEN-INPUT-FORM-REFUSAL"},
		"Whether an amount sent as a numeric string (\"1.00\") is refused.",
		quote("amount (number, required, USD, minimum 0.10)"),
		"numeric-strings-refused", "\"1.00\" is refused: amount must be a number.")
	vNumericStrings = dNumericStrings.setting("numeric-strings-accepted", "Amounts and limits sent as numeric strings (\"1.00\") are read as numbers (Laravel's numeric rule).",
		`"amount (number ...)" (that another form is refused is not stated)`, "", false)

	dAmountPrecision = declareDimension("amount-precision", []string{"OPEN-AMOUNT-PRECISION"},
		"Whether an amount with more than two decimals is refused.",
		quote("amount (number, required, USD, minimum 0.10)", "balanceAmount | number"),
		"amounts-cents-only", "More than two decimals is refused (must have at most 2 decimal places).")
	vAmountsRounded = dAmountPrecision.setting("amounts-rounded-to-cents", "Amounts and limits with more than two decimals are rounded half up to the cent.",
		`"amount (number ...)" (the precision accepted is not stated)`, "", false)

	dLimitValues = declareDimension("spend-limit-values", []string{"OPEN-AMOUNT-CAPS"},
		"What a zero or negative spend limit means.",
		quote("each an optional number in USD", "Maximum values for amounts and spend limits ...: not shown"),
		"spend-limits-positive", "A limit must be a positive number; 0 or less is refused.")
	vLimitsLenient = dLimitValues.setting("spend-limits-non-positive-unsets", "A limit of 0 or less is accepted and unsets that limit.",
		`"each an optional number in USD" (bounds not shown)`, "", false)

	dCustomerCountry = declareDimension("input-forms", []string{"OPEN-COUNTRY-3-LETTER", "OPEN-INPUT-FORM-REFUSAL"},
		"Whether a registration country other than a 3-letter code is refused.",
		quote("a 3-letter country code"),
		"customer-country-3-letters", "Only a 3-letter code is accepted.")
	vCountryAlpha2 = dCustomerCountry.setting("customer-country-2-letters-accepted", "A 2-letter country code is accepted too.",
		`"a 3-letter country code" (that others are refused is not stated)`, "", false)

	dCustomerDOB = declareDimension("customer-birth-date-form", []string{"OPEN-DATE-OF-BIRTH-FORM"},
		"Whether a date of birth other than YYYY-MM-DD is refused.",
		quote("a date of birth (YYYY-MM-DD)"),
		"customer-birth-date-extended", "Only YYYY-MM-DD is accepted.")
	vDOBBasic = dCustomerDOB.setting("customer-birth-date-basic-accepted", "A date of birth in the ISO 8601 basic form (YYYYMMDD) is accepted too.",
		`"a date of birth (YYYY-MM-DD)" (that others are refused is not stated)`, "", false)

	dContactMobile = declareDimension("contact-mobile-form", []string{"OPEN-CONTACT-MOBILE-FORM"},
		"Whether a contact mobile in neither form is refused.",
		quote("mobile (string, optional; local form or international form with a leading +)"),
		"contact-mobile-checked", "A mobile in neither form is refused.")
	vMobileUnchecked = dContactMobile.setting("contact-mobile-unchecked", "Any mobile string is passed to the card provider unchecked.",
		`"mobile (string, optional; local form or international form with a leading +)" (a refusal is not stated)`, "", false)

	dNullBody = declareDimension("empty-update", []string{"OPEN-EMPTY-UPDATE"},
		"Whether a JSON null body is malformed or empty.",
		quote("email (string, optional), mobile (string, optional) ... Only the supplied fields are updated"),
		"null-body-refused", "A null body is refused: the body must be a JSON object.")
	vNullBodyNoop = dNullBody.setting("body-null-optional-noop", "A JSON null body reads as an empty object, and a contact update supplying no field is a no-op 200.",
		`PATCH contact: "email (string, optional), mobile (string, optional) ... Only the supplied fields are updated"`, "", false)

	dLongPath = declareDimension("malformed-id", []string{"OPEN-MALFORMED-ID"},
		"The answer to a very long identifier in the path.",
		quote("404 | card, customer or transaction does not exist"),
		"long-path-404", "404: no card has that id.")
	vMalformedID400 = dLongPath.setting("malformed-id-400", "A card identifier that is neither a card id (crd_...) nor a valid reference (letters, digits, '.', '_', '-', at most 64) is refused with 400.",
		`"400 | missing parameters, malformed payload" (a malformed identifier may be refused before a lookup)`, "", false)
	vLongPath414 = dLongPath.setting("long-path-414", "A request target longer than 2048 characters is refused with 414 URI Too Long (as most HTTP servers and proxies do).",
		`the document does not bound identifiers; 414 is standard HTTP for a long request target`, "", false)

	dLiveSimulation = declareDimension("live-simulation", []string{"OPEN-LIVE-SIMULATION"},
		"Which of the two documented statuses refuses a simulation with live credentials.",
		quote("With live credentials the request is rejected with 400 or 403"),
		"live-simulation-403", "403.")
	vLiveSimCardFirst = dLiveSimulation.setting("live-simulation-card-first", "The card is looked up before the environment: a simulation with live credentials on a sandbox card answers 404 (the card does not exist in LIVE).",
		`"With live credentials the request is rejected with 400 or 403"; "404 | card ... does not exist" (the order of checks is not shown)`, "", false)
	vLiveSim400 = dLiveSimulation.setting("live-simulation-400", "A simulation with live credentials is rejected with 400.",
		`"With live credentials the request is rejected with 400 or 403"`, "", true)

	dCheckAuth = declareDimension("check-order-auth", []string{"OPEN-ACCESS-CHECK-ORDER"},
		"What is checked before the bearer token.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-auth-first", "The token is checked before anything else.")
	vValidationBeforeAuth = dCheckAuth.setting("checks-body-before-auth", "A malformed body (not JSON, not an object, not declared JSON) is refused with 400 before the token is checked (a body parser in front of the guard).",
		`the order of checks is not shown; 400 "malformed payload" and 401 are both documented`, "", false)
	vExistenceBeforeAuth = dCheckAuth.setting("checks-existence-before-auth", "An identifier no merchant has (card, gift order) is answered 404 before the token is checked.",
		`the order of checks is not shown; 404 and 401 are both documented`, "", false)

	dCheckResource = declareDimension("check-order", []string{"OPEN-CHECK-ORDER"},
		"Whether the body or the addressed card is checked first.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-body-before-card", "The body is validated before the card is looked up (400 before 404).")
	vNotFoundFirst = dCheckResource.setting("checks-card-before-body", "The card is looked up before the body is validated (404 before 400).",
		`the order of checks is not shown`, "", false)

	dCheckBusiness = declareDimension("check-order-business", []string{"OPEN-CHECK-ORDER"},
		"Whether issuance checks the customer and the vault before the rest of the body.",
		quote("Which error each individual endpoint returns for its other failure conditions ...: not shown"),
		"checks-validation-first", "Every field is validated before the customer and the vault are checked.")
	vBusinessFirst = dCheckBusiness.setting("checks-business-before-validation", "Issuance looks up the customer (404) and checks the vault (scenario 1) as soon as customerId and amount are readable, before validating the other fields.",
		`the order of checks is not shown`, "", false)
)

// refusalStatus is the status of an error answer under the settings.
func (s *Server) refusalStatus(r *http.Request, rest string, code int, msgs []string) int {
	v := &s.variants
	switch {
	case code == 400 && strings.HasSuffix(rest, "/withdraw") && len(msgs) == 1 && strings.HasPrefix(msgs[0], "Insufficient card balance"):
		switch {
		case v.on(vWithdrawAbove422):
			return http.StatusUnprocessableEntity
		case v.on(vWithdrawAbove409):
			return http.StatusConflict
		}
	case code == 400 && strings.HasSuffix(rest, "/secure") && len(msgs) == 1 && msgs[0] == msgFrozenSecure:
		switch {
		case v.on(vFrozenSecure403):
			return http.StatusForbidden
		case v.on(vFrozenSecure409):
			return http.StatusConflict
		case v.on(vFrozenSecure423):
			return http.StatusLocked
		}
	case code == 400 && v.on(vInvalidValue422) && allContain(msgs, "must be one of the following values") && !anyContain(msgs, "should not be empty"):
		return http.StatusUnprocessableEntity
	case code == 400 && v.on(vCT415) && len(msgs) == 1 && msgs[0] == msgContentType:
		return http.StatusUnsupportedMediaType
	case code == 403 && v.on(vLiveSim400) && len(msgs) == 1 && msgs[0] == msgLiveSimulate:
		return http.StatusBadRequest
	case code == 400 && v.on(vTokenMissing401) && rest == "/auth/token" && anyContain(msgs, "should not be empty"):
		return http.StatusUnauthorized
	}
	return code
}

// typeViolation is a constraint message about a member's JSON type.
var typeViolation = regexp.MustCompile(` must be (a number|a string|an integer number|a boolean value|an object)`)

// wrongTypeMessage joins type violations into one string under
// wrong-type-string-message; other messages are kept.
func (s *Server) wrongTypeMessage(code int, top map[string]any) {
	msgs := messagesOf(top["message"])
	if !s.variants.on(vWrongTypeString) || code != 400 || len(msgs) == 0 {
		return
	}
	if _, isArr := top["message"].([]any); !isArr {
		return
	}
	for _, m := range msgs {
		if !typeViolation.MatchString(m) {
			return
		}
	}
	top["message"] = "Malformed payload: " + strings.Join(msgs, "; ")
}

// emptyEnum answers 400 with one string when name is "" under
// empty-enum-as-invalid-value; it reports whether it answered.
func (s *Server) emptyEnum(rc *reqCtx, b jsonBody, name string, allowed ...string) bool {
	if !s.variants.on(vEmptyEnumInvalid) || string(b[name]) != `""` {
		return false
	}
	s.writeError(rc, http.StatusBadRequest, name+" must be "+strings.Join(allowed[:len(allowed)-1], ", ")+" or "+allowed[len(allowed)-1])
	return true
}

// numericFields are the members whose numeric strings numeric-strings-accepted reads.
var numericFields = []string{"amount", "transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"}

var numericString = regexp.MustCompile(`^"-?[0-9]+(\.[0-9]+)?"$`)

// unquoteNumbers turns numeric strings of amount members into numbers
// (numeric-strings-accepted) and rounds them to the cent
// (amounts-rounded-to-cents).
func (s *Server) unquoteNumbers(b jsonBody) {
	for _, f := range numericFields {
		r, ok := b[f]
		if ok && s.variants.on(vNumericStrings) && numericString.Match(r) {
			r = r[1 : len(r)-1]
			b[f] = r
		}
		if ok && s.variants.on(vAmountsRounded) {
			if x, exact := new(big.Rat).SetString(string(r)); exact && !x.IsInt() {
				b[f] = json.RawMessage(x.FloatString(2))
			}
		}
	}
}

// bodyBeforeAuth refuses a malformed body before the token is checked
// (checks-body-before-auth); it reports whether it answered. The body is
// put back for the handler.
func (s *Server) bodyBeforeAuth(rc *reqCtx) bool {
	r := rc.r
	if !s.variants.on(vValidationBeforeAuth) || (r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch) {
		return false
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || len(raw) > maxBody:
		return false
	case !isJSONContentType(r.Header.Get("Content-Type")) && !s.variants.on(vCTAnyParsed):
		s.writeError(rc, http.StatusBadRequest, msgContentType)
	case !json.Valid(raw):
		s.writeError(rc, http.StatusBadRequest, msgMalformedJSON)
	case raw[0] != '{' && !(s.variants.on(vNullBodyNoop) && string(raw) == "null"):
		s.writeError(rc, http.StatusBadRequest, msgNotObject)
	default:
		return false
	}
	return true
}

// existenceBeforeAuth answers 404 for an identifier no merchant has before
// the token is checked (checks-existence-before-auth).
func (s *Server) existenceBeforeAuth(rc *reqCtx, rest string) bool {
	if !s.variants.on(vExistenceBeforeAuth) || rc.p1 == "" {
		return false
	}
	gift := strings.HasPrefix(rest, "/gift-cards/")
	for _, m := range rc.world.merchants {
		for _, st := range m.envs {
			st.mu.RLock()
			found := (gift && s.findGiftOrder(st, rc.p1) != nil) || (!gift && st.findCard(rc.p1) != nil)
			st.mu.RUnlock()
			if found {
				return false
			}
		}
	}
	if gift {
		s.writeGiftNotFound(rc, rc.p1)
	} else {
		s.writeError(rc, http.StatusNotFound, msgCardNotFound)
	}
	return true
}

// cardBeforeBody answers 404 for an unknown card of a card route with a
// body before the body is read (checks-card-before-body).
func (s *Server) cardBeforeBody(rc *reqCtx, rest string) bool {
	if !s.variants.on(vNotFoundFirst) || rc.p1 == "" || !strings.HasPrefix(rest, "/cards/") || rc.r.Method == http.MethodGet {
		return false
	}
	if rc.st.env != EnvTest && strings.HasSuffix(rest, "/simulate-webhook") {
		return false // the environment check comes first there (live-simulation)
	}
	rc.st.mu.RLock()
	c := rc.st.findCard(rc.p1)
	rc.st.mu.RUnlock()
	if c != nil {
		return false
	}
	s.writeError(rc, http.StatusNotFound, msgCardNotFound)
	return true
}

// issueChecksFirst checks the customer and the vault of an issuance body
// before the rest of it (checks-business-before-validation); it reports
// whether it answered.
func (s *Server) issueChecksFirst(rc *reqCtx, b jsonBody) bool {
	if !s.variants.on(vBusinessFirst) {
		return false
	}
	var cust string
	if json.Unmarshal(b["customerId"], &cust) != nil || cust == "" {
		return false
	}
	st := rc.st
	st.mu.RLock()
	known, vault := st.custByID[cust] != nil, st.vault
	st.mu.RUnlock()
	if !known {
		s.writeError(rc, http.StatusNotFound, msgCustNotFound)
		return true
	}
	v := validator{b: b}
	amt, ok := v.amount("amount", true, 0, false)
	if ok && vault < int64(amt)+creationFee {
		s.vaultShort(rc, amt, int64(amt)+creationFee, vault)
		return true
	}
	return false
}

// longTarget refuses a request target longer than 2048 characters with 414
// (long-path-414), or a malformed card identifier with 400
// (malformed-id-400); it reports whether it answered.
func (s *Server) longTarget(rc *reqCtx) bool {
	switch {
	case s.variants.on(vLongPath414) && len(rc.r.URL.RequestURI()) > 2048:
		s.writeError(rc, http.StatusRequestURITooLong, "URI Too Long")
	case s.variants.on(vMalformedID400) && rc.p1 != "" && strings.HasPrefix(rc.r.URL.Path, s.base+"/cards/") && !reReference.MatchString(rc.p1):
		s.writeError(rc, http.StatusBadRequest, []string{"id must be a card id or a card reference"})
	default:
		return false
	}
	return true
}

// liveSimulationCardFirst answers 404 for a live simulation on a card
// this environment lacks (live-simulation-card-first); it reports whether
// it answered.
func (s *Server) liveSimulationCardFirst(rc *reqCtx) bool {
	if !s.variants.on(vLiveSimCardFirst) || rc.st.env == EnvTest {
		return false
	}
	rc.st.mu.RLock()
	c := rc.st.findCard(rc.p1)
	rc.st.mu.RUnlock()
	if c != nil {
		return false
	}
	s.writeError(rc, http.StatusNotFound, msgCardNotFound)
	return true
}

// nonPositiveLimits removes the limits of 0 or less from b under
// spend-limits-non-positive-unsets and reports which it removed.
func (s *Server) nonPositiveLimits(b jsonBody) (cleared [4]bool) {
	if !s.variants.on(vLimitsLenient) {
		return cleared
	}
	for i, n := range limitNames {
		var f float64
		if r, ok := b[n]; ok && json.Unmarshal(r, &f) == nil && f <= 0 {
			delete(b, n)
			cleared[i] = true
		}
	}
	return cleared
}
