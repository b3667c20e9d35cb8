package rewrite

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// rewriteMessages applies the message settings to an error envelope top
// (code its status).
func (s *Rewriter) rewriteMessages(code int, top map[string]any) {
	v := &s.variants
	msgs := messagesOf(top["message"])
	if v.On(variant.MinimumsBusiness) && code == 400 && allContain(msgs, "must not be less than") {
		top["message"] = "Amount is below the minimum: " + strings.Join(msgs, "; ")
	}
	if m, ok := top["message"].(string); ok {
		top["message"] = s.amountsInMessage(s.reword(m))
	} else if arr, ok := top["message"].([]any); ok && v.On(variant.ValidationReworded) {
		for i, e := range arr {
			if str, ok := e.(string); ok {
				arr[i] = rewordViolation(str)
			}
		}
	}
	if v.On(variant.MsgArray) {
		if m, ok := top["message"].(string); ok {
			top["message"] = []any{m}
		}
	}
}

// reword gives the scenario messages the chosen wording of the same meaning.
func (s *Rewriter) reword(m string) string {
	v := &s.variants
	var set map[string]string
	switch {
	case v.On(variant.MessagesReworded):
		set = rewordedMessages
	case v.On(variant.MessagesPhrasing):
		set = everydayMessages
	case v.On(variant.MessagesGerman):
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

// amountsInMessage writes the amounts of a message in the chosen form,
// every amount of the message alike.
func (s *Rewriter) amountsInMessage(m string) string {
	v := &s.variants
	rewrite := func(sep, dec string) string {
		return anyAmount.ReplaceAllStringFunc(m, func(a string) string {
			sm := anyAmount.FindStringSubmatch(a)
			return groupThousands(sm[1], sep) + dec + sm[2]
		})
	}
	switch {
	case v.On(variant.MsgAmountsCcyFirst):
		return usdAmount.ReplaceAllString(m, "$3 $1.$2")
	case v.On(variant.MsgAmountsGrouped):
		return rewrite(",", ".")
	case v.On(variant.MsgAmountsComma):
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
func (s *Rewriter) statusMessage(frozen bool) string {
	v := &s.variants
	pick := func(f, a string) string {
		if frozen {
			return f
		}
		return a
	}
	switch {
	case v.On(variant.StatusMsgVerbs):
		return pick("Card has been frozen", "Card has been unfrozen")
	case v.On(variant.StatusMsgBlocked):
		return pick("Card blocked", "Card unblocked")
	case v.On(variant.StatusMsgActivated):
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
func (s *Rewriter) setErrorStatus(top map[string]any, code int) {
	top["statusCode"] = json.Number(strconv.Itoa(code))
	top["error"] = s.reasonPhrase(code)
}

// isStatusPatch reports whether r is PATCH /cards/{id}/status.
func isStatusPatch(r *http.Request, rest string) bool {
	return r.Method == http.MethodPatch && strings.HasSuffix(rest, "/status")
}

// terseMessages words the messages of successful answers "OK"
// (success-messages-terse); PATCH status keeps its statement of the status.
func (s *Rewriter) terseMessages(r *http.Request, rest string, top map[string]any) {
	if !s.variants.On(variant.SuccessReworded) || isStatusPatch(r, rest) {
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

// vaultMessage is scenario 1 as the sandbox words it (sandbox/cards.go vaultShort).
var vaultMessage = regexp.MustCompile(`^Insufficient vault balance: required ([0-9.]+) USD \(funding ([0-9.]+) \+ issuance fee ([0-9.]+)\), available ([0-9.]+) USD$`)

var rewordedMessages = map[string]string{
	wording.CardNotFound: "No virtual card found for the given id or reference",
	wording.Bearer:       "Authentication required: provide a valid Bearer token in the Authorization header",
	wording.Expired:      "Your access token has expired; request a new bearer token",
	wording.BadCreds:     "The merchant credentials supplied are not valid",
	"ip":                 "Access denied: your IP address is not whitelisted for this merchant",
	"gift":               "No gift card order found for reference {ref}",
	"vault":              "Vault balance too low: issuing this card needs {total} USD in total (funding {funding} USD plus the issuance fee {fee} USD) but only {avail} USD is available",
}

var everydayMessages = map[string]string{
	wording.CardNotFound: "Card doesn't exist",
	wording.Bearer:       "Please authenticate: this request needs an Authorization header",
	wording.Expired:      "Your session has expired; please authenticate again",
	wording.BadCreds:     "Authentication failed: merchantId and secretKey do not match",
	"ip":                 "Requests from {ip} are forbidden for this merchant",
	"gift":               "Order {ref} could not be located",
	"vault":              "You need {total} USD to issue this card (including a {fee} USD fee); your vault holds {avail} USD",
}

var germanMessages = map[string]string{
	wording.CardNotFound: "Virtuelle Karte nicht gefunden",
	wording.Bearer:       "Bearer-Token fehlt oder ist ungültig: Authorization: Bearer <ACCESS_TOKEN> senden",
	wording.Expired:      "Bearer-Token abgelaufen: bitte ein neues Zugriffstoken anfordern",
	wording.BadCreds:     "Zugangsdaten ungültig: merchantId oder secretKey ist falsch",
	"ip":                 "IP-Adresse {ip} ist für dieses Händlerkonto nicht zugelassen",
	"gift":               "Geschenkkartenbestellung {ref} nicht gefunden",
	"vault":              "Tresorguthaben reicht nicht: benötigt {total} USD (Aufladung {funding} + Ausgabegebühr {fee}), verfügbar {avail} USD",
}

// usdAmount is an amount followed by its currency in a sandbox message;
// anyAmount is any amount with two decimals.
var (
	usdAmount = regexp.MustCompile(`\b([0-9]+)\.([0-9]{2}) (USD|NGN)\b`)
	anyAmount = regexp.MustCompile(`\b([0-9]+)\.([0-9]{2})\b`)
)

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
