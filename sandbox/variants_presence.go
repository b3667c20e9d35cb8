package sandbox

import (
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"time"
)

// Presence, nulls and open value sets: the document lists fields without
// saying which are always present, gives values "e.g." or as "the only value
// shown", and leaves answers "not shown".
var (
	dCardPresence = declareDimension("card-field-presence", []string{"OPEN-CARD-FIELD-PRESENCE"},
		"Which Card members are present and non-null.",
		quote("Card (virtual card) | Field | Type | Notes"),
		"card-members-all", "Every member of the Card table, non-null.")
	vColorThemeNull = dCardPresence.setting("card-color-theme-null", "Cards carry colorTheme: null.",
		`Card table: "colorTheme | string |" (no note; the document never says which fields are always present)`, "", true)
	vOptionalAbsent = dCardPresence.setting("card-optional-fields-absent", "Cards omit colorTheme, cardBrand and billingAddress.",
		`Card table lists the fields without saying which are always present; cardBrand is "e.g. VISA", colorTheme has no note`, "", true)
	vCardDescriptiveNull = dCardPresence.setting("card-descriptive-fields-null", "Cards carry cardBrand, colorTheme and billingAddress as null.",
		`Card table lists the fields without saying which are always present`, "", true)
	vMaskedPanNullNew = dCardPresence.setting("card-masked-pan-null-while-new", "A card's maskedPan is null for its first 2 seconds (the processor has not assigned the PAN yet).",
		`"maskedPan | string" (presence not stated; a card is created before its PAN is known at some processors)`, "", true)

	dBilling = declareDimension("billing-address-members", []string{"OPEN-BILLING-ADDRESS-MEMBERS"},
		"Which billing address members are present.",
		quote("billingAddress | object | street, city, state, postalCode, country (all strings; country as a 2-letter code)"),
		"billing-address-complete", "All five members, strings.")
	vCardBillingPartial = dBilling.setting("card-billing-address-partial", "billingAddress carries state and postalCode as null (a country without states or postcodes).",
		`"billingAddress | object | street, city, state, postalCode, country (all strings ...)" (presence not stated)`, "", true)

	dBillingCountry = declareDimension("billing-country-form", []string{"OPEN-COUNTRY-2-LETTER"},
		"How billingAddress.country writes its 2-letter code.",
		quote("country as a 2-letter code"),
		"billing-country-upper-case", "US, as ISO 3166-1 writes it.")
	vCountryLower = dBillingCountry.setting("billing-country-lower-case", "billingAddress.country is written in lower case (us).",
		`"country as a 2-letter code" (case not stated)`, "", true)

	dCardID = declareDimension("card-id-form", []string{"OPEN-CARD-ID-FORM"},
		"What follows crd_ in a card id.",
		quote("id | string | Card identifier, form crd_..."),
		"card-id-hex", "crd_ and 24 hex digits.")
	vCardIDUUID = dCardID.setting("card-id-uuid", "crd_ and a UUID (crd_3f2a9c1e-...).",
		`"form crd_..." (what follows is not stated)`, "", false)

	dInitialStatus = declareDimension("initial-card-status", []string{"OPEN-INITIAL-CARD-STATUS"},
		"The status of a newly issued card.",
		quote("status | string | ACTIVE or FROZEN", "FROZEN | PATCH /cards/{id}/status with status=ACTIVE | card exists | ACTIVE | card is usable again"),
		"card-issued-active", "ACTIVE.")
	vIssuedFrozen = dInitialStatus.setting("card-issued-frozen", "A new card is FROZEN until PATCH status ACTIVE activates it.",
		`the states table shows the transitions, not the state a card starts in`, "", false)

	dNullMembers = declareDimension("null-members", []string{"OPEN-NULL-AS-ABSENT"},
		"Whether a member without value is written null or left out.",
		quote("skip_reason (string or null)"),
		"nulls-rendered", "A member without value is written null.")
	vNullsOmitted = dNullMembers.setting("nulls-omitted", "Members whose value would be null are left out of every answer.",
		`presence is never stated; an absent member carries the same nothing as null`, "", true)
	vCardListSummary = dCardPresence.setting("card-listing-summary", "Listed cards carry id, maskedPan, nameOnCard, balanceAmount, currency, status and reference only; GET /cards/{id} carries them all.",
		`GET /cards: "data = array of Card" (which Card members are present is not stated)`, "", true)

	dCreatedStatus = declareDimension("created-status", []string{"OPEN-CREATED-STATUS"},
		"The createdStatus values a card shows.",
		quote("createdStatus | string | COMPLETED", "COMPLETED is the only value shown. Transitions of createdStatus: not shown"),
		"created-status-completed", "Every card is COMPLETED from issuance on.")
	vCreatedPendingFirst = dCreatedStatus.setting("created-status-pending-first", "A new card shows createdStatus PENDING for its first 2 seconds, then COMPLETED; it is usable meanwhile.",
		`"COMPLETED is the only value shown. Transitions of createdStatus: not shown"`, "", true)
	vCreatedIssued = dCreatedStatus.setting("created-status-other-value", "About half the cards (by id) show createdStatus ISSUED instead of COMPLETED, for good; they work like the others.",
		`"COMPLETED is the only value shown"`, "", true)

	dCardBrand = declareDimension("card-values", []string{"OPEN-CARD-BRAND"},
		"The network name cards carry.",
		quote("cardBrand | string | a card network name, e.g. VISA"),
		"card-brand-visa", "Cards are issued on VISA unless the issuance names a brand.")
	vBrandMastercard = dCardBrand.setting("card-brand-mastercard", "Cards are issued on the MASTERCARD network.",
		`Card: "cardBrand | a card network name, e.g. VISA"`, "", false)
	vBrandTitleCase = dCardBrand.setting("card-brand-title-case", "cardBrand is written Visa / Mastercard.",
		`Card: "cardBrand | a card network name, e.g. VISA"`, "", true)

	dSecurePresence = declareDimension("sparse-resources", []string{"OPEN-SECURE-FIELD-PRESENCE"},
		"Which members of the secure details are present and non-null.",
		quote("Secure card details | Field | Type"),
		"secure-members-all", "Every member of the secure details table, non-null.")
	vSecureDescriptiveAbsent = dSecurePresence.setting("secure-descriptive-fields-absent", "Secure details omit reference, maskedPan, nameOnCard and billingAddress (the credentials stay).",
		`Secure card details: the table lists the fields without saying which are always present`, "", true)
	vSecureReferenceNull = dSecurePresence.setting("secure-reference-null", "Secure details carry reference: null.",
		`Secure card details: "reference | string" (presence not stated)`, "", true)

	dConfigPresence = declareDimension("config-member-presence", []string{"OPEN-CONFIG-FIELD-PRESENCE"},
		"Whether the configuration carries an exchange rate when none applies.",
		quote("exchangeRate | number | exchange rate"),
		"config-members-all", "Every member of the configuration, non-null.")
	vConfigRateNull = dConfigPresence.setting("config-exchange-rate-null", "GET /cards/config answers exchangeRate: null (no rate configured for the merchant).",
		`"exchangeRate | number | exchange rate" (no pair named; presence not stated)`, "", true)
	vConfigRateAbsent = dConfigPresence.setting("config-exchange-rate-absent", "GET /cards/config omits exchangeRate.",
		`"exchangeRate | number | exchange rate" (presence not stated)`, "", true)

	dExtraMembers = declareDimension("extra-members", []string{"OPEN-EXTRA-MEMBERS"},
		"Members the document does not list.",
		quote("Response envelopes"),
		"extra-members-none", "Answers carry the documented members only.")
	vExtraMembers = dExtraMembers.setting("extra-members", "Every answer carries extra members (requestId, meta).",
		`The document lists fields; it never forbids others`, "", true)
	vExtraNested = dExtraMembers.setting("extra-members-nested", "Every object inside an answer (cards, orders, limits, configuration) carries an extra member x-trace.",
		`The document lists fields; it never forbids others`, "", true)

	dNotShownEnvelope = declareDimension("not-shown-envelope", []string{"OPEN-NOT-SHOWN-ANSWERS", "OPEN-ISSUANCE-SHAPE", "OPEN-CUSTOMER-RECORD", "OPEN-GIFT-PURCHASE-SHAPE"},
		"The envelope of the answers the document does not show (issuance, registration, customer listing, gift purchase).",
		quote("Card issuance request and response shape: not shown", "Response body of registration: not shown", "Response body of listing: not shown", "Gift card purchase response fields: not shown"),
		"not-shown-answers-envelope-a", "They answer in Envelope A, like the card operations.")
	vNotShownFlat = dNotShownEnvelope.setting("not-shown-answers-unenveloped", "Issuance, registration, customer listing and gift purchase answer without Envelope A: the card, customer, customer array or order at top level.",
		`"Card issuance request and response shape: not shown"; "Response body of registration: not shown"; "Response body of listing: not shown"; "the purchase response: not shown"`,
		"issuance:\n  cardPointer: \"\"\ncustomers:\n  customerIdPointer: /customerId\n  listPointer: \"\"\ngiftCards:\n  purchase:\n    orderPointer: \"\"\n    referencePointer: /reference\n    transactionIdPointer: /transactionId\n", true)
	vNotShownEnvB = dNotShownEnvelope.setting("not-shown-answers-envelope-b", "Issuance, registration, customer listing and gift purchase answer in Envelope B (success, message, data, timestamp).",
		`"Card issuance request and response shape: not shown"; "Response body of registration: not shown"; "Response body of listing: not shown"; "Gift card purchase response fields: not shown"`, "", true)

	dCustomerRecord = declareDimension("customer-record", []string{"OPEN-CUSTOMER-RECORD"},
		"The members of the customer record of registration and listing.",
		quote("Customer record returned by registration and listing: not shown"),
		"customer-record-full", "The record echoes every registration input (idNumber as its last 4), kycStatus and createdAt.")
	vCustomerMinimal = dCustomerRecord.setting("customer-record-minimal", "The record carries customerId and kycStatus only.",
		`"Customer record returned by registration and listing: not shown"; "the returned customerId is used to issue cards"`, "", true)

	dCustomerIDType = declareDimension("customer-id-form", []string{"OPEN-CUSTOMER-ID-FORM"},
		"The JSON type of customerId.",
		quote("the returned customerId is used to issue cards", "Response body of registration: not shown"),
		"customer-id-string", "customerId is a string (cus_...).")
	vCustomerIDNumeric = dCustomerIDType.setting("customer-id-numeric", "customerId is a JSON number (a database key); issuance takes it as a number or a string.",
		`"the returned customerId is used to issue cards" (its type is not shown)`, "", true)

	dIssuanceAnswer = declareDimension("issuance-answer-members", []string{"OPEN-ISSUANCE-SHAPE"},
		"How much of the card the issuance answer carries.",
		quote("Card issuance request and response shape: not shown", "returns a card"),
		"issuance-answer-full-card", "The issuance answer carries the whole Card.")
	vIssuanceSparse = dIssuanceAnswer.setting("issuance-answer-sparse", "The issuance answer's card carries id, reference and status only (read the card for the rest).",
		`"Card issuance request and response shape: not shown" (it "returns a card"; which members is not stated)`, "", true)

	dGift404 = declareDimension("error-envelope-members", []string{"OPEN-ERROR-ENVELOPE-MEMBERS"},
		"Which members the gift order 404 carries.",
		quote("The gift order 404 response is shown with only statusCode, message and error"),
		"gift-404-short", "statusCode, message and error only.")
	vErr401Short = dGift404.setting("errors-401-three-members", "401 answers (from an authentication guard in front of the handlers) carry only statusCode, message and error.",
		`"The gift order 404 response is shown with only statusCode, message and error" (the document itself shows an error without status, timestamp and path)`, "", true)
	vGift404Full = dGift404.setting("gift-404-full-envelope", "The gift order 404 carries the full error envelope (status, timestamp, path).",
		`Errors: "The gift order 404 response is shown with only statusCode, message and error" (shown, not limited)`, "", true)
)

// cardSummaryMembers are the members of a listed card under card-listing-summary.
var cardSummaryMembers = []string{"id", "maskedPan", "nameOnCard", "balanceAmount", "currency", "status", "reference"}

// rewriteCard applies the card settings to a Card object found at path.
func (s *Server) rewriteCard(x map[string]any, path string) {
	v := &s.variants
	switch {
	case v.on(vColorThemeNull):
		x["colorTheme"] = nil
	case v.on(vOptionalAbsent):
		delete(x, "colorTheme")
		delete(x, "cardBrand")
		delete(x, "billingAddress")
	case v.on(vCardDescriptiveNull):
		x["colorTheme"], x["cardBrand"], x["billingAddress"] = nil, nil, nil
	case v.on(vMaskedPanNullNew):
		at, _ := x["createdAt"].(string)
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && s.clk.Now().Sub(t) < 2*time.Second {
			x["maskedPan"] = nil
		}
	case v.on(vCardListSummary) && strings.HasSuffix(path, "[]"):
		keep := map[string]bool{}
		for _, k := range cardSummaryMembers {
			keep[k] = true
		}
		for k := range x {
			if !keep[k] {
				delete(x, k)
			}
		}
	}
	if b, ok := x["cardBrand"].(string); ok && v.on(vBrandTitleCase) {
		x["cardBrand"] = b[:1] + strings.ToLower(b[1:])
	}
	s.rewriteCreatedStatus(x)
	if v.on(vUpdatedOnRead) {
		x["updatedAt"] = ts(s.clk.Now())
	}
}

// rewriteCreatedStatus applies the createdStatus settings to card x.
func (s *Server) rewriteCreatedStatus(x map[string]any) {
	v := &s.variants
	switch {
	case v.on(vCreatedPendingFirst):
		at, _ := x["createdAt"].(string)
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && s.clk.Now().Sub(t) < 2*time.Second {
			x["createdStatus"] = "PENDING"
		}
	case v.on(vCreatedIssued):
		if id, _ := x["id"].(string); id != "" && (id[len(id)-1]-'0')%2 == 0 {
			x["createdStatus"] = "ISSUED"
		}
	}
}

// rewriteAddress applies the billing address settings.
func (s *Server) rewriteAddress(x map[string]any) {
	if s.variants.on(vCardBillingPartial) {
		x["state"], x["postalCode"] = nil, nil
	}
	if c, ok := x["country"].(string); ok && s.variants.on(vCountryLower) {
		x["country"] = strings.ToLower(c)
	}
}

// rewriteSecure applies the secure-details settings.
func (s *Server) rewriteSecure(x map[string]any) {
	v := &s.variants
	if cvv, ok := x["cvv"].(string); ok && v.on(vCvvFour) && len(cvv) == 3 {
		x["cvv"] = cvv + "7"
	}
	switch {
	case v.on(vSecureDescriptiveAbsent):
		for _, k := range []string{"reference", "maskedPan", "nameOnCard", "billingAddress"} {
			delete(x, k)
		}
	case v.on(vSecureReferenceNull):
		x["reference"] = nil
	}
}

// rewriteConfig applies the configuration settings.
func (s *Server) rewriteConfig(x map[string]any) {
	v := &s.variants
	switch {
	case v.on(vConfigRateNull):
		x["exchangeRate"] = nil
	case v.on(vConfigRateAbsent):
		delete(x, "exchangeRate")
	}
}

// sparseIssuance trims the issuance answer's card to id, reference and
// status (issuance-answer-sparse).
func (s *Server) sparseIssuance(r *http.Request, rest string, top map[string]any) {
	if !s.variants.on(vIssuanceSparse) || r.Method != http.MethodPost || rest != "/cards" {
		return
	}
	if c, ok := top["data"].(map[string]any); ok {
		for k := range c {
			if k != "id" && k != "reference" && k != "status" {
				delete(c, k)
			}
		}
	}
}

// rewriteCustomer applies the customer-record settings to a record.
func (s *Server) rewriteCustomer(x map[string]any) {
	v := &s.variants
	if id, ok := x["customerId"].(string); ok && v.on(vCustomerIDNumeric) {
		x["customerId"] = json.Number(id)
	}
	if v.on(vCustomerMinimal) {
		for k := range x {
			if k != "customerId" && k != "kycStatus" {
				delete(x, k)
			}
		}
	}
}

// successStatus is the status of a successful answer under the settings.
func (s *Server) successStatus(r *http.Request, rest string, code int) int {
	v := &s.variants
	if r.Method != http.MethodPost || code != http.StatusCreated {
		return code
	}
	switch {
	case rest == "/cards" && v.onAny(vSuccessAlt, vSuccessBoth200):
		return http.StatusOK
	case rest == "/cards/customers" && v.onAny(vSuccessRegistration200, vSuccessBoth200):
		return http.StatusOK
	}
	return code
}

var (
	dSuccessStatus = declareDimension("success-status", []string{"OPEN-SUCCESS-STATUS"},
		"200 or 201 for the creations whose answer is not shown.",
		quote("200, 201 | success", "Card issuance request and response shape: not shown", "Response body of registration: not shown"),
		"success-created-201", "Issuance and registration answer 201.")
	vSuccessAlt = dSuccessStatus.setting("success-status-alternates", "Card issuance answers 200 and customer registration 201.",
		`Errors: "200, 201 | success"; issuance and registration answers: not shown`, "", true)
	vSuccessRegistration200 = dSuccessStatus.setting("success-status-registration-200", "Customer registration answers 200, issuance 201.",
		`"200, 201 | success"`, "", true)
	vSuccessBoth200 = dSuccessStatus.setting("success-status-always-200", "Issuance and registration answer 200.",
		`"200, 201 | success"`, "", true)
)

// newCustomerID is a new customer's id: cus_<hex>, or digits under
// customer-id-numeric.
func (s *Server) newCustomerID() string {
	if s.variants.on(vCustomerIDNumeric) {
		return randDigitIn("123456789") + randDigits(9)
	}
	return "cus_" + randHex(12)
}

// customerIDOf reads issuance's customerId: a string, or under
// customer-id-numeric also a JSON number, read by value (1234.0 and 1.234e3
// are 1234).
func (s *Server) customerIDOf(v *validator) string {
	if r, ok := v.raw("customerId"); ok && s.variants.on(vCustomerIDNumeric) && r[0] >= '0' && r[0] <= '9' {
		if n, ok := new(big.Rat).SetString(string(r)); ok && n.IsInt() {
			return n.Num().String()
		}
	}
	return v.str("customerId", true, maxText)
}
