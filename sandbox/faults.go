package sandbox

import (
	"fmt"
	"sort"
)

// Fault is one injectable deviation from the contract. A conformance suite run
// against a sandbox started with the fault must fail the named requirements;
// that is how the harness proves its suites can fail (issue 4).
type Fault struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Requirements []string `json:"requirements"`
}

// faultSet holds one plain bool per fault. Each is read at exactly one point in
// the logic (`if s.faults.x { ... }`), so a fault costs a predictable branch
// when off and never alters the normal path unless selected. To add a fault:
// add a field here, a catalogue entry below, and the check at its point.
type faultSet struct {
	authExpiredAccepted    bool
	authIgnoreMerchantHdr  bool
	crossMerchantCardRead  bool
	listIgnoresLimit       bool
	withdrawNoVaultCredit  bool
	withdrawOverBalance    bool
	frozenCardApproves     bool
	giftVerifyChargesAgain bool
	errorEnvelopeNoPath    bool
	rateLimitNoRetryAfter  bool
	webhookBadSignature    bool
	secureRevealsFrozen    bool
}

type faultDef struct {
	Fault
	set func(*faultSet)
}

// catalogue is the list of injectable faults, kept sorted by name.
var catalogue = []faultDef{
	{Fault{"auth-expired-token-accepted", "Bearer tokens are accepted after their 900 s lifetime.", []string{"AUTH-03"}},
		func(f *faultSet) { f.authExpiredAccepted = true }},
	{Fault{"auth-ignore-merchant-header", "A mismatching X-Merchant-Id header is ignored instead of answering 401.", []string{"AUTH-05"}},
		func(f *faultSet) { f.authIgnoreMerchantHdr = true }},
	{Fault{"card-cross-merchant-read", "GET /cards/{id} returns a card of another merchant or environment instead of 404.", []string{"CARD-GET-02", "ISO-01"}},
		func(f *faultSet) { f.crossMerchantCardRead = true }},
	{Fault{"card-list-ignores-limit", "GET /cards ignores the limit parameter and returns every card.", []string{"CARD-LIST-03"}},
		func(f *faultSet) { f.listIgnoresLimit = true }},
	{Fault{"card-secure-reveals-frozen", "GET /cards/{id}/secure reveals credentials of a FROZEN card.", []string{"CARD-SECURE-02"}},
		func(f *faultSet) { f.secureRevealsFrozen = true }},
	{Fault{"card-withdraw-no-vault-credit", "A withdrawal lowers the card balance but never credits the vault (money disappears).", []string{"CARD-WITHDRAW-03", "MONEY-01"}},
		func(f *faultSet) { f.withdrawNoVaultCredit = true }},
	{Fault{"card-withdraw-over-balance", "A withdrawal above the card balance succeeds and drives the balance negative.", []string{"CARD-WITHDRAW-02"}},
		func(f *faultSet) { f.withdrawOverBalance = true }},
	{Fault{"card-frozen-approves", "Simulated transactions on a FROZEN card are approved.", []string{"CARD-STATUS-02"}},
		func(f *faultSet) { f.frozenCardApproves = true }},
	{Fault{"error-envelope-no-path", "Error envelopes omit the path field.", []string{"ERR-01"}},
		func(f *faultSet) { f.errorEnvelopeNoPath = true }},
	{Fault{"gift-verify-charges-again", "Each verify of a gift order debits the NGN balance again.", []string{"GIFT-VERIFY-03", "MONEY-01"}},
		func(f *faultSet) { f.giftVerifyChargesAgain = true }},
	{Fault{"rate-limit-no-retry-after", "429 answers carry no Retry-After header.", []string{"RATE-02"}},
		func(f *faultSet) { f.rateLimitNoRetryAfter = true }},
	{Fault{"webhook-bad-signature", "Webhook deliveries are signed with a wrong secret.", []string{"HOOK-03"}},
		func(f *faultSet) { f.webhookBadSignature = true }},
}

func init() {
	sort.Slice(catalogue, func(i, j int) bool { return catalogue[i].Name < catalogue[j].Name })
}

// Faults returns the catalogue of injectable faults, sorted by name.
func Faults() []Fault {
	out := make([]Fault, len(catalogue))
	for i, d := range catalogue {
		out[i] = d.Fault
		out[i].Requirements = append([]string(nil), d.Requirements...)
	}
	return out
}

func buildFaults(names []string) (faultSet, error) {
	var fs faultSet
	for _, n := range names {
		found := false
		for _, d := range catalogue {
			if d.Name == n {
				d.set(&fs)
				found = true
				break
			}
		}
		if !found {
			return faultSet{}, fmt.Errorf("sandbox: unknown fault %q (see mph sandbox --list-faults)", n)
		}
	}
	return fs, nil
}
