package variant

// Presence, nulls and open value sets: the document lists fields without
// saying which are always present, gives values "e.g." or as "the only value
// shown", and leaves answers "not shown".
var (
	dCardPresence = declareDimension("card-field-presence", []string{"OPEN-CARD-FIELD-PRESENCE"},
		"Which Card members are present and non-null.",
		quote("Card (virtual card) | Field | Type | Notes"),
		"card-members-all", "Every member of the Card table, non-null.")
	ColorThemeNull = dCardPresence.setting("card-color-theme-null", "Cards carry colorTheme: null.",
		`Card table: "colorTheme | string |" (no note; the document never says which fields are always present)`, "", true)
	OptionalAbsent = dCardPresence.setting("card-optional-fields-absent", "Cards omit colorTheme, cardBrand and billingAddress.",
		`Card table lists the fields without saying which are always present; cardBrand is "e.g. VISA", colorTheme has no note`, "", true)
	CardDescriptiveNull = dCardPresence.setting("card-descriptive-fields-null", "Cards carry cardBrand, colorTheme and billingAddress as null.",
		`Card table lists the fields without saying which are always present`, "", true)
	MaskedPanNullNew = dCardPresence.setting("card-masked-pan-null-while-new", "A card's maskedPan is null for its first 2 seconds (the processor has not assigned the PAN yet).",
		`"maskedPan | string" (presence not stated; a card is created before its PAN is known at some processors)`, "", true)

	dBilling = declareDimension("billing-address-members", []string{"OPEN-BILLING-ADDRESS-MEMBERS"},
		"Which billing address members are present.",
		quote("billingAddress | object | street, city, state, postalCode, country (all strings; country as a 2-letter code)"),
		"billing-address-complete", "All five members, strings.")
	CardBillingPartial = dBilling.setting("card-billing-address-partial", "billingAddress carries state and postalCode as null (a country without states or postcodes).",
		`"billingAddress | object | street, city, state, postalCode, country (all strings ...)" (presence not stated)`, "", true)

	dBillingCountry = declareDimension("billing-country-form", []string{"OPEN-COUNTRY-2-LETTER"},
		"How billingAddress.country writes its 2-letter code.",
		quote("country as a 2-letter code"),
		"billing-country-upper-case", "US, as ISO 3166-1 writes it.")
	CountryLower = dBillingCountry.setting("billing-country-lower-case", "billingAddress.country is written in lower case (us).",
		`"country as a 2-letter code" (case not stated)`, "", true)

	dCardID = declareDimension("card-id-form", []string{"OPEN-CARD-ID-FORM"},
		"What follows crd_ in a card id.",
		quote("id | string | Card identifier, form crd_..."),
		"card-id-hex", "crd_ and 24 hex digits.")
	CardIDUUID = dCardID.setting("card-id-uuid", "crd_ and a UUID (crd_3f2a9c1e-...).",
		`"form crd_..." (what follows is not stated)`, "", false)

	dInitialStatus = declareDimension("initial-card-status", []string{"OPEN-INITIAL-CARD-STATUS"},
		"The status of a newly issued card.",
		quote("status | string | ACTIVE or FROZEN", "FROZEN | PATCH /cards/{id}/status with status=ACTIVE | card exists | ACTIVE | card is usable again"),
		"card-issued-active", "ACTIVE.")
	IssuedFrozen = dInitialStatus.setting("card-issued-frozen", "A new card is FROZEN until PATCH status ACTIVE activates it.",
		`the states table shows the transitions, not the state a card starts in`, "", false)

	dNullMembers = declareDimension("null-members", []string{"OPEN-NULL-AS-ABSENT"},
		"Whether a member without value is written null or left out.",
		quote("skip_reason (string or null)"),
		"nulls-rendered", "A member without value is written null.")
	NullsOmitted = dNullMembers.setting("nulls-omitted", "Members whose value would be null are left out of every answer.",
		`presence is never stated; an absent member carries the same nothing as null`, "", true)
	CardListSummary = dCardPresence.setting("card-listing-summary", "Listed cards carry id, maskedPan, nameOnCard, balanceAmount, currency, status and reference only; GET /cards/{id} carries them all.",
		`GET /cards: "data = array of Card" (which Card members are present is not stated)`, "", true)

	dCreatedStatus = declareDimension("created-status", []string{"OPEN-CREATED-STATUS"},
		"The createdStatus values a card shows.",
		quote("createdStatus | string | COMPLETED", "COMPLETED is the only value shown. Transitions of createdStatus: not shown"),
		"created-status-completed", "Every card is COMPLETED from issuance on.")
	CreatedPendingFirst = dCreatedStatus.setting("created-status-pending-first", "A new card shows createdStatus PENDING for its first 2 seconds, then COMPLETED; it is usable meanwhile.",
		`"COMPLETED is the only value shown. Transitions of createdStatus: not shown"`, "", true)
	CreatedIssued = dCreatedStatus.setting("created-status-other-value", "About half the cards (by id) show createdStatus ISSUED instead of COMPLETED, for good; they work like the others.",
		`"COMPLETED is the only value shown"`, "", true)

	dCardBrand = declareDimension("card-values", []string{"OPEN-CARD-BRAND"},
		"The network name cards carry.",
		quote("cardBrand | string | a card network name, e.g. VISA"),
		"card-brand-visa", "Cards are issued on VISA unless the issuance names a brand.")
	BrandMastercard = dCardBrand.setting("card-brand-mastercard", "Cards are issued on the MASTERCARD network.",
		`Card: "cardBrand | a card network name, e.g. VISA"`, "", false)
	BrandTitleCase = dCardBrand.setting("card-brand-title-case", "cardBrand is written Visa / Mastercard.",
		`Card: "cardBrand | a card network name, e.g. VISA"`, "", true)

	dSecurePresence = declareDimension("sparse-resources", []string{"OPEN-SECURE-FIELD-PRESENCE"},
		"Which members of the secure details are present and non-null.",
		quote("Secure card details | Field | Type"),
		"secure-members-all", "Every member of the secure details table, non-null.")
	SecureDescriptiveAbsent = dSecurePresence.setting("secure-descriptive-fields-absent", "Secure details omit reference, maskedPan, nameOnCard and billingAddress (the credentials stay).",
		`Secure card details: the table lists the fields without saying which are always present`, "", true)
	SecureReferenceNull = dSecurePresence.setting("secure-reference-null", "Secure details carry reference: null.",
		`Secure card details: "reference | string" (presence not stated)`, "", true)

	dConfigPresence = declareDimension("config-member-presence", []string{"OPEN-CONFIG-FIELD-PRESENCE"},
		"Whether the configuration carries an exchange rate when none applies.",
		quote("exchangeRate | number | exchange rate"),
		"config-members-all", "Every member of the configuration, non-null.")
	ConfigRateNull = dConfigPresence.setting("config-exchange-rate-null", "GET /cards/config answers exchangeRate: null (no rate configured for the merchant).",
		`"exchangeRate | number | exchange rate" (no pair named; presence not stated)`, "", true)
	ConfigRateAbsent = dConfigPresence.setting("config-exchange-rate-absent", "GET /cards/config omits exchangeRate.",
		`"exchangeRate | number | exchange rate" (presence not stated)`, "", true)

	dExtraMembers = declareDimension("extra-members", []string{"OPEN-EXTRA-MEMBERS"},
		"Members the document does not list.",
		quote("Response envelopes"),
		"extra-members-none", "Answers carry the documented members only.")
	ExtraMembers = dExtraMembers.setting("extra-members", "Every answer carries extra members (requestId, meta).",
		`The document lists fields; it never forbids others`, "", true)
	ExtraNested = dExtraMembers.setting("extra-members-nested", "Every object inside an answer (cards, orders, limits, configuration) carries an extra member x-trace.",
		`The document lists fields; it never forbids others`, "", true)

	dNotShownEnvelope = declareDimension("not-shown-envelope", []string{"OPEN-NOT-SHOWN-ANSWERS", "OPEN-ISSUANCE-SHAPE", "OPEN-CUSTOMER-RECORD", "OPEN-GIFT-PURCHASE-SHAPE"},
		"The envelope of the answers the document does not show (issuance, registration, customer listing, gift purchase).",
		quote("Card issuance request and response shape: not shown", "Response body of registration: not shown", "Response body of listing: not shown", "Gift card purchase response fields: not shown"),
		"not-shown-answers-envelope-a", "They answer in Envelope A, like the card operations.")
	NotShownFlat = dNotShownEnvelope.setting("not-shown-answers-unenveloped", "Issuance, registration, customer listing and gift purchase answer without Envelope A: the card, customer, customer array or order at top level.",
		`"Card issuance request and response shape: not shown"; "Response body of registration: not shown"; "Response body of listing: not shown"; "the purchase response: not shown"`,
		"issuance:\n  cardPointer: \"\"\ncustomers:\n  customerIdPointer: /customerId\n  listPointer: \"\"\ngiftCards:\n  purchase:\n    orderPointer: \"\"\n    referencePointer: /reference\n    transactionIdPointer: /transactionId\n", true)
	NotShownEnvB = dNotShownEnvelope.setting("not-shown-answers-envelope-b", "Issuance, registration, customer listing and gift purchase answer in Envelope B (success, message, data, timestamp).",
		`"Card issuance request and response shape: not shown"; "Response body of registration: not shown"; "Response body of listing: not shown"; "Gift card purchase response fields: not shown"`, "", true)

	dCustomerRecord = declareDimension("customer-record", []string{"OPEN-CUSTOMER-RECORD"},
		"The members of the customer record of registration and listing.",
		quote("Customer record returned by registration and listing: not shown"),
		"customer-record-full", "The record echoes every registration input (idNumber as its last 4), kycStatus and createdAt.")
	CustomerMinimal = dCustomerRecord.setting("customer-record-minimal", "The record carries customerId and kycStatus only.",
		`"Customer record returned by registration and listing: not shown"; "the returned customerId is used to issue cards"`, "", true)

	dCustomerIDType = declareDimension("customer-id-form", []string{"OPEN-CUSTOMER-ID-FORM"},
		"The JSON type of customerId.",
		quote("the returned customerId is used to issue cards", "Response body of registration: not shown"),
		"customer-id-string", "customerId is a string (cus_...).")
	CustomerIDNumeric = dCustomerIDType.setting("customer-id-numeric", "customerId is a JSON number (a database key); issuance takes it as a number or a string.",
		`"the returned customerId is used to issue cards" (its type is not shown)`, "", true)

	dIssuanceAnswer = declareDimension("issuance-answer-members", []string{"OPEN-ISSUANCE-SHAPE"},
		"How much of the card the issuance answer carries.",
		quote("Card issuance request and response shape: not shown", "returns a card"),
		"issuance-answer-full-card", "The issuance answer carries the whole Card.")
	IssuanceSparse = dIssuanceAnswer.setting("issuance-answer-sparse", "The issuance answer's card carries id, reference and status only (read the card for the rest).",
		`"Card issuance request and response shape: not shown" (it "returns a card"; which members is not stated)`, "", true)

	dGift404 = declareDimension("error-envelope-members", []string{"OPEN-ERROR-ENVELOPE-MEMBERS"},
		"Which members the gift order 404 carries.",
		quote("The gift order 404 response is shown with only statusCode, message and error"),
		"gift-404-short", "statusCode, message and error only.")
	Err401Short = dGift404.setting("errors-401-three-members", "401 answers (from an authentication guard in front of the handlers) carry only statusCode, message and error.",
		`"The gift order 404 response is shown with only statusCode, message and error" (the document itself shows an error without status, timestamp and path)`, "", true)
	Gift404Full = dGift404.setting("gift-404-full-envelope", "The gift order 404 carries the full error envelope (status, timestamp, path).",
		`Errors: "The gift order 404 response is shown with only statusCode, message and error" (shown, not limited)`, "", true)
)

var (
	dSuccessStatus = declareDimension("success-status", []string{"OPEN-SUCCESS-STATUS"},
		"200 or 201 for the creations whose answer is not shown.",
		quote("200, 201 | success", "Card issuance request and response shape: not shown", "Response body of registration: not shown"),
		"success-created-201", "Issuance and registration answer 201.")
	SuccessAlt = dSuccessStatus.setting("success-status-alternates", "Card issuance answers 200 and customer registration 201.",
		`Errors: "200, 201 | success"; issuance and registration answers: not shown`, "", true)
	SuccessRegistration200 = dSuccessStatus.setting("success-status-registration-200", "Customer registration answers 200, issuance 201.",
		`"200, 201 | success"`, "", true)
	SuccessBoth200 = dSuccessStatus.setting("success-status-always-200", "Issuance and registration answer 200.",
		`"200, 201 | success"`, "", true)
)
