package suites

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/requirements"
)

// ReqIDs are the requirement IDs a spec verifies (see Reqs).
type ReqIDs []string

// Reqs names the catalogue requirements (requirements/catalog.yaml) a spec
// verifies. Every ConformanceIt needs it; an unknown ID fails the run at start.
func Reqs(ids ...string) ReqIDs { return ReqIDs(ids) }

// Capability is a precondition a spec needs beyond one TEST merchant.
type Capability string

// Capabilities. A spec that Needs one the target lacks is skipped with the reason.
const (
	CapSandboxControls Capability = "sandbox-controls"     // any /_sandbox test control
	CapClock           Capability = "clock-control"        // /_sandbox/clock/advance
	CapTransactions    Capability = "transaction-control"  // /_sandbox/cards/{id}/transactions (+ settle)
	CapBalances        Capability = "balances-control"     // read/set merchant balances
	CapWebhookConfig   Capability = "webhook-config"       // set a merchant's webhook URL
	CapGiftHold        Capability = "gift-hold-control"    // hold a gift order in PROCESSING
	CapRateLimitCtl    Capability = "rate-limit-control"   // change rate limits
	CapIPWhitelistCtl  Capability = "ip-whitelist-control" // change IP whitelists
	CapSecondMerchant  Capability = "second-merchant"      // a second TEST merchant
	CapLiveTier2       Capability = "live-credentials"     // LIVE key of a merchant at KYB Tier 2+
	CapLiveLowKYB      Capability = "live-below-tier2"     // LIVE key of a merchant below KYB Tier 2
	CapNotWhitelisted  Capability = "non-whitelisted-merchant"
	CapWebhookReceiver Capability = "webhook-receiver" // the target can reach the harness's receiver
	CapTestEnvironment Capability = "test-environment" // primary credentials are TEST
)

// controlNames maps a control capability to the name /_sandbox/capabilities lists.
var controlNames = map[Capability]string{
	CapClock:          "clock",
	CapTransactions:   "transactions",
	CapBalances:       "balances",
	CapWebhookConfig:  "webhook",
	CapGiftHold:       "gift-hold",
	CapRateLimitCtl:   "rate-limits",
	CapIPWhitelistCtl: "ip-whitelist",
}

// NeedList lists the capabilities a spec needs (see Needs).
type NeedList []Capability

// Needs declares the capabilities a spec needs; when the target lacks one the
// spec is skipped with the reason.
func Needs(caps ...Capability) NeedList { return NeedList(caps) }

// Tag is a label from the one frozen list below. Only these (plus the area
// and requirement-ID labels derived from Reqs) may label a spec.
type Tag string

// The frozen label list.
const (
	Destructive     Tag = "destructive"      // creates or changes state on the target
	Slow            Tag = "slow"             // takes more than a few seconds on purpose
	SandboxControls Tag = "sandbox-controls" // uses the sandbox test controls (added by Needs too)
	Live            Tag = "live"             // uses LIVE credentials (added by Needs too)
	Webhooks        Tag = "webhooks"         // needs the webhook receiver (added by Needs too)
)

var frozenTags = map[Tag]bool{Destructive: true, Slow: true, SandboxControls: true, Live: true, Webhooks: true}

// Declaration is what ConformanceIt recorded about one spec.
type Declaration struct {
	Text   string
	Reqs   []string
	Needs  []Capability
	Tags   []Tag
	Labels []string
	Where  string
}

var (
	declMu       sync.Mutex
	declarations []Declaration
	declErrors   []string
)

// DeclarationErrors returns malformed ConformanceIt declarations found while
// building the spec tree (the run fails at start when there are any).
func DeclarationErrors() []string {
	declMu.Lock()
	defer declMu.Unlock()
	return append([]string(nil), declErrors...)
}

// Declarations returns every spec declared so far (after tree construction).
func Declarations() []Declaration {
	declMu.Lock()
	defer declMu.Unlock()
	return append([]Declaration(nil), declarations...)
}

// ConformanceIt declares one spec: text reads as the requirement; args are
// any of Reqs(...) (required), Needs(...), Tags of the frozen list
// (Destructive, Slow, SandboxControls, Live, Webhooks), Ginkgo decorators
// (Serial, Ordered, FlakeAttempts, SpecTimeout, ...) and exactly one body
// func(ctx SpecContext). Labels applied: the frozen tags, the area of every
// requirement ID (requirements.Area) and the IDs themselves.
//
// The body runs only when every Need is met (else Skip with the reason) and,
// for Destructive specs, when no LIVE credentials write (neither a LIVE
// primary nor, for specs labelled Live, the MPH_LIVE_* ones) or --allow-live
// was given (see live_guard.go).
// parseDecl validates a declaration; problems are returned, not recorded.
func parseDecl(text, where string, args []any) (d Declaration, body func(SpecContext), deco []any, problems []string) {
	declError := func(_ string, format string, a ...any) {
		problems = append(problems, where+": "+fmt.Sprintf(format, a...))
	}
	var (
		reqs  []string
		needs []Capability
		tags  []Tag
	)
	for _, a := range args {
		switch v := a.(type) {
		case ReqIDs:
			reqs = append(reqs, v...)
		case NeedList:
			needs = append(needs, v...)
		case Capability:
			needs = append(needs, v)
		case Tag:
			if !frozenTags[v] {
				declError(where, "label %q is not in the frozen list (destructive, slow, sandbox-controls, live, webhooks)", v)
			}
			tags = append(tags, v)
		case func(SpecContext):
			if body != nil {
				declError(where, "more than one body")
			}
			body = v
		case Labels:
			declError(where, "use the frozen Tags (Destructive, Slow, ...) instead of ginkgo Label(%v)", v)
		case string:
			declError(where, "unexpected string argument %q (requirement IDs go in Reqs(...))", v)
		case func():
			declError(where, "the body must be func(ctx SpecContext)")
		default:
			deco = append(deco, a)
		}
	}
	if text == "" {
		declError(where, "empty spec text")
	}
	if len(reqs) == 0 {
		declError(where, "no requirement IDs: add Reqs(\"AREA-NN\", ...)")
	}
	if body == nil {
		declError(where, "no body func(ctx SpecContext)")
		body = func(SpecContext) {}
	}
	labelSet := map[string]bool{}
	for _, id := range reqs {
		if _, ok := requirements.Lookup(id); !ok {
			declError(where, "unknown requirement ID %q (not in requirements/catalog.yaml)", id)
			continue
		}
		labelSet[id] = true
		if area := requirements.Area(id); area != "" {
			labelSet[area] = true
		}
	}
	for _, n := range needs {
		switch {
		case n == CapSandboxControls || controlNames[n] != "":
			labelSet[string(SandboxControls)] = true
		case n == CapLiveTier2 || n == CapLiveLowKYB:
			labelSet[string(Live)] = true
		case n == CapWebhookReceiver:
			labelSet[string(Webhooks)] = true
		case n == CapSecondMerchant || n == CapNotWhitelisted || n == CapTestEnvironment:
		default:
			declError(where, "unknown capability %q", n)
		}
	}
	for _, t := range tags {
		labelSet[string(t)] = true
	}
	labels := make([]string, 0, len(labelSet))
	for l := range labelSet {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	d = Declaration{Text: text, Reqs: reqs, Needs: needs, Tags: tags, Labels: labels, Where: where}
	return d, body, deco, problems
}

func ConformanceIt(text string, args ...any) bool {
	cl := types.NewCodeLocation(1)
	where := fmt.Sprintf("%s:%d %q", cl.FileName, cl.LineNumber, text)
	d, body, deco, problems := parseDecl(text, where, args)
	declMu.Lock()
	declarations = append(declarations, d)
	declErrors = append(declErrors, problems...)
	declMu.Unlock()
	needs, labels := d.Needs, d.Labels
	labelSet := map[string]bool{}
	for _, l := range labels {
		labelSet[l] = true
	}
	destructive := labelSet[string(Destructive)]
	run := func(ctx SpecContext) {
		if reason := missing(needs); reason != "" {
			Skip(reason)
		}
		if destructive && h.liveRefused() {
			Skip("refused: the primary credentials are LIVE and this spec is destructive; pass --allow-live (" + "MPH_ALLOW_LIVE=1) to run it")
		}
		if destructive && labelSet[string(Live)] && !h.liveWritesAllowed() {
			Skip("refused: this spec writes with LIVE credentials (MPH_LIVE_*), which can spend real money; pass --allow-live (MPH_ALLOW_LIVE=1) to run it")
		}
		body(ctx)
	}
	itArgs := append([]any{Label(labels...)}, deco...)
	itArgs = append(itArgs, run, cl)
	return It(text, itArgs...)
}

// reqLabelsOf returns the requirement IDs among a spec's labels.
func reqLabelsOf(labels []string) []string {
	var out []string
	for _, l := range labels {
		if _, ok := requirements.Lookup(l); ok {
			out = append(out, l)
		}
	}
	return out
}

// describeNeeds renders capabilities for messages.
func describeNeeds(n []Capability) string {
	s := make([]string, len(n))
	for i, c := range n {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}
