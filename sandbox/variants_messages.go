package sandbox

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

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
	vMessagesReworded = dScenarioWording.setting("error-messages-reworded", "Scenario messages use other wordings with the same meaning (\"No virtual card found ...\").",
		`Scenarios: the message "says", "asks for", "reports" (a meaning, not a sentence)`, "", true)
	vMessagesPhrasing = dScenarioWording.setting("messages-everyday-phrasing", "Scenario messages in everyday phrasing: \"Card doesn't exist\", \"Authentication credentials were not provided\", \"Order REF could not be located\".",
		`Scenarios: the message "says", "asks for", "reports" (a meaning, not a sentence)`, "", true)
	vMessagesGerman = dScenarioWording.setting("messages-german", "Scenario messages in German: \"Virtuelle Karte nicht gefunden\", \"Zugangsdaten ungültig\".",
		`Scenarios: a meaning; the language of messages is not stated`, "", true)

	dMessageAmounts = declareDimension("message-amounts", []string{"OPEN-MESSAGE-AMOUNTS"},
		"How amounts are written inside messages (scenario 1 states two amounts).",
		quote("message states the required total (funding plus issuance fee) and the available amount"),
		"message-amounts-plain", "Amounts in messages as 1234.56 USD.")
	vMsgAmountsCcyFirst = dMessageAmounts.setting("message-amounts-currency-first", "Amounts in messages as USD 1234.56.",
		`scenario 1: "states the required total ... and the available amount" (how is not stated)`, "", true)
	vMsgAmountsGrouped = dMessageAmounts.setting("message-amounts-grouped", "Amounts in messages with thousands separators: 1,000,000.00 USD.",
		`scenario 1: "states the required total ... and the available amount"`, "", true)
	vMsgAmountsComma = dMessageAmounts.setting("message-amounts-decimal-comma", "Amounts in messages with a decimal comma and dots between thousands: 1.000.000,00 USD.",
		`scenario 1: "states the required total ... and the available amount"`, "", true)

	dValidationWording = declareDimension("validation-message-wording", []string{"OPEN-VALIDATION-WORDING"},
		"The wording of constraint-violation messages.",
		quote("for example a message that a field should not be empty or must not be less than a minimum"),
		"validation-class-validator", "class-validator wordings: \"amount should not be empty\", \"amount must not be less than 0.1\".")
	vValidationReworded = dValidationWording.setting("validation-messages-reworded", "Constraint violations worded otherwise: \"amount is required\", \"amount must be at least 0.10\", \"status: expected one of ACTIVE, FROZEN\".",
		`"for example a message that a field should not be empty or must not be less than a minimum" (examples of a meaning)`, "", true)

	dSuccessWording = declareDimension("success-message-wording", []string{"OPEN-SUCCESS-MESSAGES"},
		"The wording of the messages of successful answers (withdraw, spend limits, contact, simulation).",
		quote("data = message (string) and card", "data = message (string), cardId (string), spendLimits"),
		"success-messages-sandbox", "\"Withdrew 1.00 USD to the vault\", \"Spend limits updated\", \"Contact details updated\".")
	vSuccessReworded = dSuccessWording.setting("success-messages-terse", "Successful answers say only \"OK\".",
		`"message (string)" (its words are not stated, except that PATCH status states the new status)`, "", true)

	dMessageShape = declareDimension("error-message-form", []string{"OPEN-ERROR-MESSAGE-FORM"},
		"Whether single error messages are strings or one-element arrays.",
		quote("message | string or array of strings"),
		"error-message-string", "A single error is a string; payload validation an array.")
	vMsgArray = dMessageShape.setting("error-message-always-array", "Every error message is an array of strings, also for single errors.",
		`Errors: "message | string or array of strings"`, "", true)

	dMinimumKind = declareDimension("validation-scope", []string{"OPEN-VALIDATION-SCOPE"},
		"Whether an amount below a documented minimum is a validation or a business failure.",
		quote("initial card funding below the minimum of 1.00 USD", "an array of constraint-violation strings when payload validation fails"),
		"minimums-as-validation", "Amounts below a minimum are payload validation failures (an array message).")
	vMinimumsBusiness = dMinimumKind.setting("minimums-as-business-errors", "Amounts below a minimum (funding, withdrawal) are refused with 400 and a single string message.",
		`Errors: 400 for "business constraint failure (for example ... initial card funding below the minimum of 1.00 USD)"; message "string or array of strings"`, "", true)

	dStatusWording = declareDimension("status-message", []string{"OPEN-STATUS-MESSAGE"},
		"How PATCH status states the new status.",
		quote("message (string stating the new status)"),
		"status-message-named", "\"Card status updated to FROZEN\" / \"... ACTIVE\".")
	vStatusMsgVerbs = dStatusWording.setting("status-message-verbs", "PATCH status answers data.message \"Card has been frozen\" / \"Card has been unfrozen\".",
		`PATCH /cards/{id}/status: "message (string stating the new status)"`, "", true)
	vStatusMsgBlocked = dStatusWording.setting("status-message-blocked", "PATCH status answers \"Card blocked\" / \"Card unblocked\".",
		`"message (string stating the new status)"`, "", true)
	vStatusMsgActivated = dStatusWording.setting("status-message-activated", "PATCH status answers \"Card suspended\" / \"Card activated successfully\".",
		`"message (string stating the new status)"`, "", true)
)

// rewriteMessages applies the message settings to an error envelope top
// (code its status).
func (s *Server) rewriteMessages(code int, top map[string]any) {
	v := &s.variants
	msgs := messagesOf(top["message"])
	if v.on(vMinimumsBusiness) && code == 400 && allContain(msgs, "must not be less than") {
		top["message"] = "Amount is below the minimum: " + strings.Join(msgs, "; ")
	}
	if m, ok := top["message"].(string); ok {
		top["message"] = s.amountsInMessage(s.reword(m))
	} else if arr, ok := top["message"].([]any); ok && v.on(vValidationReworded) {
		for i, e := range arr {
			if str, ok := e.(string); ok {
				arr[i] = rewordViolation(str)
			}
		}
	}
	if v.on(vMsgArray) {
		if m, ok := top["message"].(string); ok {
			top["message"] = []any{m}
		}
	}
}

// reword gives the scenario messages the chosen wording of the same meaning.
func (s *Server) reword(m string) string {
	v := &s.variants
	var set map[string]string
	switch {
	case v.on(vMessagesReworded):
		set = rewordedMessages
	case v.on(vMessagesPhrasing):
		set = everydayMessages
	case v.on(vMessagesGerman):
		set = germanMessages
	default:
		return m
	}
	if alt, ok := set[m]; ok {
		return alt
	}
	if ip, ok := strings.CutPrefix(m, "IP address "); ok {
		ip, _, _ = strings.Cut(ip, " ")
		return strings.ReplaceAll(set["ip"], "{ip}", ip)
	}
	if ref, ok := strings.CutPrefix(m, "Gift card order with reference '"); ok {
		return strings.ReplaceAll(set["gift"], "{ref}", strings.TrimSuffix(ref, "' not found"))
	}
	if sm := vaultMessage.FindStringSubmatch(m); sm != nil {
		r := strings.NewReplacer("{total}", sm[1], "{funding}", sm[2], "{fee}", sm[3], "{avail}", sm[4])
		return r.Replace(set["vault"])
	}
	return m
}

// vaultMessage is scenario 1 as the sandbox words it (cards.go vaultShort).
var vaultMessage = regexp.MustCompile(`^Insufficient vault balance: required ([0-9.]+) USD \(funding ([0-9.]+) \+ issuance fee ([0-9.]+)\), available ([0-9.]+) USD$`)

var rewordedMessages = map[string]string{
	msgCardNotFound: "No virtual card found for the given id or reference",
	msgBearer:       "Authentication required: provide a valid Bearer token in the Authorization header",
	msgExpired:      "Your access token has expired; request a new bearer token",
	msgBadCreds:     "The merchant credentials supplied are not valid",
	"ip":            "Access denied: your IP address is not whitelisted for this merchant",
	"gift":          "No gift card order found for reference {ref}",
	"vault":         "Vault balance too low: issuing this card needs {total} USD in total (funding {funding} USD plus the issuance fee {fee} USD) but only {avail} USD is available",
}

var everydayMessages = map[string]string{
	msgCardNotFound: "Card doesn't exist",
	msgBearer:       "Please authenticate: this request needs an Authorization header",
	msgExpired:      "Your session has expired; please authenticate again",
	msgBadCreds:     "Authentication failed: merchantId and secretKey do not match",
	"ip":            "Requests from {ip} are forbidden for this merchant",
	"gift":          "Order {ref} could not be located",
	"vault":         "You need {total} USD to issue this card (including a {fee} USD fee); your vault holds {avail} USD",
}

var germanMessages = map[string]string{
	msgCardNotFound: "Virtuelle Karte nicht gefunden",
	msgBearer:       "Bearer-Token fehlt oder ist ungültig: Authorization: Bearer <ACCESS_TOKEN> senden",
	msgExpired:      "Bearer-Token abgelaufen: bitte ein neues Zugriffstoken anfordern",
	msgBadCreds:     "Zugangsdaten ungültig: merchantId oder secretKey ist falsch",
	"ip":            "IP-Adresse {ip} ist für dieses Händlerkonto nicht zugelassen",
	"gift":          "Geschenkkartenbestellung {ref} nicht gefunden",
	"vault":         "Tresorguthaben reicht nicht: benötigt {total} USD (Aufladung {funding} + Ausgabegebühr {fee}), verfügbar {avail} USD",
}

// usdAmount is an amount followed by its currency in a sandbox message;
// anyAmount is any amount with two decimals.
var (
	usdAmount = regexp.MustCompile(`\b([0-9]+)\.([0-9]{2}) (USD|NGN)\b`)
	anyAmount = regexp.MustCompile(`\b([0-9]+)\.([0-9]{2})\b`)
)

// amountsInMessage writes the amounts of a message in the chosen form,
// every amount of the message alike.
func (s *Server) amountsInMessage(m string) string {
	v := &s.variants
	rewrite := func(sep, dec string) string {
		return anyAmount.ReplaceAllStringFunc(m, func(a string) string {
			sm := anyAmount.FindStringSubmatch(a)
			return groupThousands(sm[1], sep) + dec + sm[2]
		})
	}
	switch {
	case v.on(vMsgAmountsCcyFirst):
		return usdAmount.ReplaceAllString(m, "$3 $1.$2")
	case v.on(vMsgAmountsGrouped):
		return rewrite(",", ".")
	case v.on(vMsgAmountsComma):
		return rewrite(".", ",")
	}
	return m
}

// groupThousands inserts sep between groups of three digits.
func groupThousands(digits, sep string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// violationRewrites reword class-validator messages (field first).
var violationRewrites = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^(\S+) should not be empty$`), "$1 is required"},
	{regexp.MustCompile(`^(\S+) must not be less than (\S+)$`), "$1 must be at least $2"},
	{regexp.MustCompile(`^(\S+) must be one of the following values: (.+)$`), "$1: expected one of $2"},
	{regexp.MustCompile(`^(\S+) must be a number(.*)$`), "$1: a number is expected$2"},
	{regexp.MustCompile(`^(\S+) must be a string$`), "$1: a string is expected"},
}

func rewordViolation(m string) string {
	for _, r := range violationRewrites {
		if r.re.MatchString(m) {
			return r.re.ReplaceAllString(m, r.with)
		}
	}
	return m
}

// statusMessage is PATCH status's message for the new status under the
// wording settings ("" keeps the sandbox's).
func (s *Server) statusMessage(frozen bool) string {
	v := &s.variants
	pick := func(f, a string) string {
		if frozen {
			return f
		}
		return a
	}
	switch {
	case v.on(vStatusMsgVerbs):
		return pick("Card has been frozen", "Card has been unfrozen")
	case v.on(vStatusMsgBlocked):
		return pick("Card blocked", "Card unblocked")
	case v.on(vStatusMsgActivated):
		return pick("Card suspended", "Card activated successfully")
	}
	return ""
}

func messagesOf(m any) []string {
	switch x := m.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

func allContain(msgs []string, sub string) bool {
	for _, m := range msgs {
		if !strings.Contains(m, sub) {
			return false
		}
	}
	return len(msgs) > 0
}

func anyContain(msgs []string, sub string) bool {
	for _, m := range msgs {
		if strings.Contains(m, sub) {
			return true
		}
	}
	return false
}

// setStatus rewrites an error envelope's status code and reason phrase.
func (s *Server) setErrorStatus(top map[string]any, code int) {
	top["statusCode"] = json.Number(strconv.Itoa(code))
	top["error"] = s.reasonPhrase(code)
}

// isStatusPatch reports whether r is PATCH /cards/{id}/status.
func isStatusPatch(r *http.Request, rest string) bool {
	return r.Method == http.MethodPatch && strings.HasSuffix(rest, "/status")
}

// terseMessages words the messages of successful answers "OK"
// (success-messages-terse); PATCH status keeps its statement of the status.
func (s *Server) terseMessages(r *http.Request, rest string, top map[string]any) {
	if !s.variants.on(vSuccessReworded) || isStatusPatch(r, rest) {
		return
	}
	if _, ok := top["message"].(string); ok {
		top["message"] = "OK"
	}
	if d, ok := top["data"].(map[string]any); ok {
		if _, ok := d["message"].(string); ok {
			d["message"] = "OK"
		}
	}
}
