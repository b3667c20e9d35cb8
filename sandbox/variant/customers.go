package variant

// Customers: registration rules, uniqueness and approval are "not shown".
var (
	dCustomerUnique = declareDimension("customer-rules", []string{"OPEN-CUSTOMER-IDENTITY-RULES"},
		"Which registration inputs must be unique per merchant.",
		quote("Registers a cardholder and submits identity verification", "Customer verification states: not shown"),
		"customer-duplicates-allowed", "Any number of customers may share a document, phone or e-mail.")
	UniqueIDNumber = dCustomerUnique.setting("customer-unique-id-number", "A second customer with the same identity document number is refused with 409.",
		`identity verification is submitted at registration; other failure conditions: not shown`, "", false)
	UniquePhone = dCustomerUnique.setting("customer-unique-phone", "A second customer with the same phone number is refused with 409.",
		`other failure conditions: not shown`, "", false)
	UniqueEmail = dCustomerUnique.setting("customer-unique-email", "A second customer with the same e-mail is refused with 409.",
		`other failure conditions: not shown`, "", false)
	UniqueIdentity = dCustomerUnique.setting("customer-unique-identity", "Document number, phone and e-mail are each unique per merchant (409).",
		`other failure conditions: not shown`, "", false)

	dCustomerRules = declareDimension("customer-input-rules", []string{"OPEN-CUSTOMER-FIELD-FORMS"},
		"Validation of registration inputs beyond their presence.",
		quote("firstName | string | yes", "phoneNumber | string | yes", "Names and required flags of the additional registration fields: not shown"),
		"customer-inputs-loose", "Names any text; a phone number 7 to 15 digits.")
	PhoneValidated = dCustomerRules.setting("customer-phone-validated", "Phone numbers are validated for their country prefix: +1, +44 and +234 numbers need 10 national digits (libphonenumber's lengths).",
		`"phoneNumber | string | yes" (its validation is not shown)`, "", false)
	NamesLetters = dCustomerRules.setting("customer-names-letters-only", "firstName and lastName hold letters, spaces, apostrophes and hyphens only (a KYC rule).",
		`"firstName | string", "lastName | string" (their validation is not shown)`, "", false)

	dCustomerFields = declareDimension("customer-field-names", []string{"OPEN-CUSTOMER-FIELD-NAMES"},
		"The wire names of the registration inputs the document does not name.",
		quote("Names and required flags of the additional registration fields: not shown"),
		"customer-fields-camel-case", "phoneCountryCode, dateOfBirth, idType, idNumber, address, city, state, postalCode, country.")
	CustomerSnake = dCustomerFields.setting("customer-fields-snake-case", "The additional inputs are phone_country_code, date_of_birth, id_type, id_number and postal_code (address, city, state, country as before).",
		`"Names and required flags of the additional registration fields: not shown"`,
		"customers:\n  fields:\n    phoneCountryCode: phone_country_code\n    dateOfBirth: date_of_birth\n    idType: id_type\n    idNumber: id_number\n    postalCode: postal_code\n", false)

	dCustomerApproval = declareDimension("customer-approval", []string{"OPEN-CUSTOMER-APPROVAL"},
		"When a registered customer can receive cards.",
		quote("After successful verification the returned customerId is used to issue cards", "Customer verification states: not shown"),
		"customer-approved-at-once", "Verification approves a valid registration at once.")
	ApprovalDelayed = dCustomerApproval.setting("customer-approval-delayed", "Verification completes 2 seconds after registration (kycStatus PENDING until then); issuance before is refused with 400.",
		`"After successful verification the returned customerId is used to issue cards" (when verification completes is not shown)`, "", false)

	dCustomerListOrder = declareDimension("customer-list-order", []string{"OPEN-CUSTOMER-LIST-ORDER"},
		"The order of GET /cards/customers.",
		quote("Returns all cardholder customers registered under the merchant"),
		"customer-list-newest-first", "Newest first.")
	CustListOldest = dCustomerListOrder.setting("customer-list-oldest-first", "GET /cards/customers lists the oldest customers first.",
		`"Returns all cardholder customers" (order not shown)`, "", false)
)
