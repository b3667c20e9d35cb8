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

// faultSet holds one plain bool per fault, read only at the precise point(s)
// of the logic the fault corrupts (`if s.faults.x { ... }`): off, a fault costs
// one predictable branch and never alters the normal path. To add a fault:
// add a field here (or to moreFaults), a catalogue entry below (or to
// moreCatalogue, faults_catalogue.go), the check at its point, and a probe in
// faults_test.go (or moreProbes, faults_catalogue_test.go) proving the rule
// holds without it and breaks with it. docs/faults.md is the plan: every
// fault, the rule it breaks and the spec that kills it.
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
	rateLimitBare          bool
	webhookFakeDispatch    bool
	secureRevealsFrozen    bool

	moreFaults     // faults_catalogue.go
	strengthFaults // faults_strength.go
}

type faultDef struct {
	Fault
	set func(*faultSet)
}

// catalogue is the list of injectable faults, kept sorted by name.
var catalogue = []faultDef{
	{Fault{"auth-expired-token-accepted", "Bearer tokens are accepted after their 900 s lifetime.", []string{"AUTH-12", "ERR-15"}},
		func(f *faultSet) { f.authExpiredAccepted = true }},
	{Fault{"auth-ignore-merchant-header", "A mismatching X-Merchant-Id header is ignored instead of answering 401.", []string{"AUTH-20", "ERR-08"}},
		func(f *faultSet) { f.authIgnoreMerchantHdr = true }},
	{Fault{"card-cross-merchant-read", "GET /cards/{id} returns a card of another merchant or environment instead of 404.", []string{"ISO-01", "ERR-10"}},
		func(f *faultSet) { f.crossMerchantCardRead = true }},
	{Fault{"card-list-ignores-limit", "GET /cards ignores the limit parameter and returns every card.", []string{"LIST-08"}},
		func(f *faultSet) { f.listIgnoresLimit = true }},
	{Fault{"card-secure-reveals-frozen", "GET /cards/{id}/secure reveals credentials of a FROZEN card.", []string{"SECURE-01"}},
		func(f *faultSet) { f.secureRevealsFrozen = true }},
	{Fault{"card-withdraw-no-vault-credit", "A withdrawal lowers the card balance but never credits the vault (money disappears).", []string{"WITHDRAW-05", "CONFIG-08"}},
		func(f *faultSet) { f.withdrawNoVaultCredit = true }},
	{Fault{"card-withdraw-over-balance", "A withdrawal above the card balance succeeds and drives the balance negative.", []string{"WITHDRAW-07"}},
		func(f *faultSet) { f.withdrawOverBalance = true }},
	{Fault{"card-frozen-approves", "Card transactions on a FROZEN card are approved.", []string{"TXN-01", "TXN-02"}},
		func(f *faultSet) { f.frozenCardApproves = true }},
	{Fault{"error-envelope-no-path", "Error envelopes omit the path field.", []string{"ERR-01"}},
		func(f *faultSet) { f.errorEnvelopeNoPath = true }},
	{Fault{"gift-verify-charges-again", "Each verify of a gift order debits the NGN balance again.", []string{"GIFT-13"}},
		func(f *faultSet) { f.giftVerifyChargesAgain = true }},
	{Fault{"rate-limit-bare-429", "429 answers are plain text instead of the error envelope.", []string{"RATE-02", "ERR-01"}},
		func(f *faultSet) { f.rateLimitBare = true }},
	{Fault{"webhook-claims-dispatch", "simulate-webhook answers dispatched true without delivering anything.", []string{"WEBHOOK-09", "WEBHOOK-08"}},
		func(f *faultSet) { f.webhookFakeDispatch = true }},
}

func init() {
	catalogue = append(catalogue, moreCatalogue...)
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
