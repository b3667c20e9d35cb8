package variant

// Messages: the document gives a message's meaning ("says", "asks for",
// "reports", "states"), never its wording, and its shape only for payload
// validation.
var (
	dScenarioWording = declareDimension("message-wording", []string{"OPEN-MESSAGE-WORDING"},
		"The wording of the six scenario messages (the meaning is stated, the sentence is not).",
		quote("message states the required total (funding plus issuance fee) and the available amount", "message asks for the bearer token",
			"message reports invalid credentials", "message says the IP address is not allowed for the merchant account",
			"message says the virtual card was not found", "message names the reference and says the gift card order was not found"),
		"messages-sandbox-wording", "The sandbox's wordings (docs/sandbox.md): \"Virtual card not found\", \"Missing or invalid bearer token: ...\".")
	MessagesReworded = dScenarioWording.setting("error-messages-reworded", "Scenario messages use other wordings with the same meaning (\"No virtual card found ...\").",
		`Scenarios: the message "says", "asks for", "reports" (a meaning, not a sentence)`, "", true)
	MessagesPhrasing = dScenarioWording.setting("messages-everyday-phrasing", "Scenario messages in everyday phrasing: \"Card doesn't exist\", \"Authentication credentials were not provided\", \"Order REF could not be located\".",
		`Scenarios: the message "says", "asks for", "reports" (a meaning, not a sentence)`, "", true)
	MessagesGerman = dScenarioWording.setting("messages-german", "Scenario messages in German: \"Virtuelle Karte nicht gefunden\", \"Zugangsdaten ungültig\".",
		`Scenarios: a meaning; the language of messages is not stated`, "", true)

	dMessageAmounts = declareDimension("message-amounts", []string{"OPEN-MESSAGE-AMOUNTS"},
		"How amounts are written inside messages (scenario 1 states two amounts).",
		quote("message states the required total (funding plus issuance fee) and the available amount"),
		"message-amounts-plain", "Amounts in messages as 1234.56 USD.")
	MsgAmountsCcyFirst = dMessageAmounts.setting("message-amounts-currency-first", "Amounts in messages as USD 1234.56.",
		`scenario 1: "states the required total ... and the available amount" (how is not stated)`, "", true)
	MsgAmountsGrouped = dMessageAmounts.setting("message-amounts-grouped", "Amounts in messages with thousands separators: 1,000,000.00 USD.",
		`scenario 1: "states the required total ... and the available amount"`, "", true)
	MsgAmountsComma = dMessageAmounts.setting("message-amounts-decimal-comma", "Amounts in messages with a decimal comma and dots between thousands: 1.000.000,00 USD.",
		`scenario 1: "states the required total ... and the available amount"`, "", true)

	dValidationWording = declareDimension("validation-message-wording", []string{"OPEN-VALIDATION-WORDING"},
		"The wording of constraint-violation messages.",
		quote("for example a message that a field should not be empty or must not be less than a minimum"),
		"validation-class-validator", "class-validator wordings: \"amount should not be empty\", \"amount must not be less than 0.1\".")
	ValidationReworded = dValidationWording.setting("validation-messages-reworded", "Constraint violations worded otherwise: \"amount is required\", \"amount must be at least 0.10\", \"status: expected one of ACTIVE, FROZEN\".",
		`"for example a message that a field should not be empty or must not be less than a minimum" (examples of a meaning)`, "", true)

	dSuccessWording = declareDimension("success-message-wording", []string{"OPEN-SUCCESS-MESSAGES"},
		"The wording of the messages of successful answers (withdraw, spend limits, contact, simulation).",
		quote("data = message (string) and card", "data = message (string), cardId (string), spendLimits"),
		"success-messages-sandbox", "\"Withdrew 1.00 USD to the vault\", \"Spend limits updated\", \"Contact details updated\".")
	SuccessReworded = dSuccessWording.setting("success-messages-terse", "Successful answers say only \"OK\".",
		`"message (string)" (its words are not stated, except that PATCH status states the new status)`, "", true)

	dMessageShape = declareDimension("error-message-form", []string{"OPEN-ERROR-MESSAGE-FORM"},
		"Whether single error messages are strings or one-element arrays.",
		quote("message | string or array of strings"),
		"error-message-string", "A single error is a string; payload validation an array.")
	MsgArray = dMessageShape.setting("error-message-always-array", "Every error message is an array of strings, also for single errors.",
		`Errors: "message | string or array of strings"`, "", true)

	dMinimumKind = declareDimension("validation-scope", []string{"OPEN-VALIDATION-SCOPE"},
		"Whether an amount below a documented minimum is a validation or a business failure.",
		quote("initial card funding below the minimum of 1.00 USD", "an array of constraint-violation strings when payload validation fails"),
		"minimums-as-validation", "Amounts below a minimum are payload validation failures (an array message).")
	MinimumsBusiness = dMinimumKind.setting("minimums-as-business-errors", "Amounts below a minimum (funding, withdrawal) are refused with 400 and a single string message.",
		`Errors: 400 for "business constraint failure (for example ... initial card funding below the minimum of 1.00 USD)"; message "string or array of strings"`, "", true)

	dStatusWording = declareDimension("status-message", []string{"OPEN-STATUS-MESSAGE"},
		"How PATCH status states the new status.",
		quote("message (string stating the new status)"),
		"status-message-named", "\"Card status updated to FROZEN\" / \"... ACTIVE\".")
	StatusMsgVerbs = dStatusWording.setting("status-message-verbs", "PATCH status answers data.message \"Card has been frozen\" / \"Card has been unfrozen\".",
		`PATCH /cards/{id}/status: "message (string stating the new status)"`, "", true)
	StatusMsgBlocked = dStatusWording.setting("status-message-blocked", "PATCH status answers \"Card blocked\" / \"Card unblocked\".",
		`"message (string stating the new status)"`, "", true)
	StatusMsgActivated = dStatusWording.setting("status-message-activated", "PATCH status answers \"Card suspended\" / \"Card activated successfully\".",
		`"message (string stating the new status)"`, "", true)
)
