package fault

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/ids"
)

// Faults of the area "Card issuance" (the registry: fault.go).

var (
	IssueDupRef = declare("Card issuance", "issue-duplicate-reference-accepted", "A second card with an existing merchant reference is issued instead of 409.",
		"ERR-11")
	IssueMinOffByCent = declare("Card issuance", "issue-min-funding-off-by-cent", "Card issuance accepts an initial funding of 0.99 USD (minimum off by one cent).",
		"ISSUE-03", "ISSUE-09")
	IssueNoCreationFee = declare("Card issuance", "issue-no-creation-fee", "Card issuance debits the vault the funding amount only, without the creation fee.",
		"ISSUE-04")
	IssueUnknownCustomer = declare("Card issuance", "issue-unknown-customer-accepted", "Card issuance for a customer that does not exist creates a card.",
		"ISSUE-07")
	IssueVaultExclFee = declare("Card issuance", "issue-vault-check-excludes-fee", "Vault sufficiency at issuance compares the funding alone, not funding plus fee (the vault can go negative).",
		"ISSUE-05")
	IssueVaultExactRefused = declare("Card issuance", "issue-vault-exact-refused", "Issuance is refused when the vault equals funding plus fee exactly (off by one cent).",
		"ISSUE-05", "ISSUE-04")
	IssueVaultMsgNoTotal = declare("Card issuance", "issue-vault-message-no-total", "The vault shortfall 400 states only the available amount, not the required total.",
		"ERR-14", "ISSUE-05")
)

// issueAnswerFaults corrupt members of the card in the issuance
// answer (POST /cards): each member's own rule fails.
var issueAnswerFaults = []struct {
	name, desc string
	reqs       []string
	mutate     func(card map[string]any)
}{
	{"issue-answer-id-unknown", "The issuance answer names a card id that does not exist (the card issued is stored under another).", []string{"ISSUE-01"},
		func(c map[string]any) { c["id"] = "crd_" + ids.Hex(12) }},
	{"issue-answer-not-as-given", "The issued card carries the nameOnCard given in upper case, a generated reference instead of the one given and a balance of 0.",
		[]string{"ISSUE-08", "GET-14", "ISSUE-06"},
		func(c map[string]any) {
			c["nameOnCard"] = strings.ToUpper(fmt.Sprint(c["nameOnCard"]))
			c["reference"] = "card_" + ids.Hex(8)
			c["balanceAmount"] = json.Number("0.00")
		}},
}

var _ = func() bool {
	for _, f := range issueAnswerFaults {
		mutate := f.mutate
		declareMember("Card issuance", f.name, f.desc, http.MethodPost, pathIs("/cards"),
			func(top map[string]any) {
				if d := dataMember(top); d != nil {
					mutate(d)
				}
			}, f.reqs...)
	}
	return true
}()
