package framework

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/result"
)

// SpecID is a spec's stable short ID (area.slug, e.g.
// "withdraw.over-balance"), declared by every spec and table entry: waivers,
// baselines and reports key on it, so rewording a spec keeps it. The
// committed inventory (suites/inventory.yaml) lists every ID.
type SpecID string

// ReqIDs are the requirement IDs a spec verifies (see Reqs).
type ReqIDs []string

// Reqs names the catalogue requirements (requirements/catalog.yaml) a spec
// verifies. Every ConformanceIt needs it; an unknown ID fails the run at start.
func Reqs(ids ...string) ReqIDs { return ReqIDs(ids) }

// ProfileKeyList names the target-profile keys a spec's verdict depends on
// (see ProfileKeys).
type ProfileKeyList []string

// ProfileKeys declares the profile keys (dotted, e.g.
// "giftCards.quote.totalPointer") whose value the spec's verdict depends
// on: a key listed as undetermined in the profile (discovery could not
// settle it) makes the spec end as no verdict naming it, instead of judging
// by a default the target may not share; the ledger lists them per
// requirement. An unknown key is a declaration error.
func ProfileKeys(keys ...string) ProfileKeyList { return ProfileKeyList(keys) }

// Capability is a precondition a spec needs beyond one TEST merchant: the
// one vocabulary of requirements.Capability, which the catalogue's needs:
// use too. A spec that Needs one the target lacks is skipped with the reason.
type Capability = requirements.Capability

// The capabilities, under the names the specs use.
const (
	CapSandboxControls = requirements.CapSandboxControls
	CapClock           = requirements.CapClock
	CapTransactions    = requirements.CapTransactions
	CapBalances        = requirements.CapBalances
	CapWebhookConfig   = requirements.CapWebhookConfig
	CapGiftHold        = requirements.CapGiftHold
	CapRateLimitCtl    = requirements.CapRateLimitCtl
	CapIPWhitelistCtl  = requirements.CapIPWhitelistCtl
	CapSecondMerchant  = requirements.CapSecondMerchant
	CapLiveTier2       = requirements.CapLiveTier2
	CapLiveLowKYB      = requirements.CapLiveLowKYB
	CapNotWhitelisted  = requirements.CapNotWhitelisted
	CapWebhookReceiver = requirements.CapWebhookReceiver
	CapTestEnvironment = requirements.CapTestEnvironment
)

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
	ID       string // the declared stable short ID (SpecID)
	Text     string
	FullText string // the containers' texts and Text, as reports name the spec
	Reqs     []string
	Needs    []Capability
	Tags     []Tag
	Labels   []string
	Where    string
	// Endpoints and Rule: the cell of the rule × endpoint grid (cells.go).
	Endpoints []string
	Rule      string
	// ProfileKeys are the profile keys the verdict depends on.
	ProfileKeys []string
}

// declRegistry is every declaration of the tree, and what was wrong with them.
type declRegistry struct {
	mu     sync.Mutex
	list   []Declaration
	errors []string
	seen   map[string]bool   // declaration keys: the tree is built by --list previews and the run
	ids    map[string]string // spec ID → where it was declared
}

// idPattern is the form of a declared spec ID.
var idPattern = regexp.MustCompile(`^[a-z0-9-]+\.[a-z0-9-]{2,40}$`)

// DeclarationErrors returns malformed ConformanceIt declarations found while
// building the spec tree, and the catalogue needs no spec takes (the run
// fails at start when there are any).
func DeclarationErrors() []string {
	h.decl.mu.Lock()
	defer h.decl.mu.Unlock()
	return append(append([]string(nil), h.decl.errors...), unmetNeeds(h.decl.list)...)
}

// unmetNeeds checks the catalogue's needs against the specs: a requirement's
// needs: name what checking it takes, so at least one spec citing it must
// declare them all (a need is met by itself or, for the sandbox controls,
// by any one control). Other specs may check it another way.
func unmetNeeds(decls []Declaration) []string {
	var cited []string
	met := map[string]bool{}
	for _, d := range decls {
		for _, id := range d.Reqs {
			r, ok := requirements.Lookup(id)
			if !ok {
				continue // an unknown ID is reported with its declaration
			}
			was, seen := met[id]
			if !seen {
				cited = append(cited, id)
			}
			met[id] = was || declares(d.Needs, r.Needs)
		}
	}
	var out []string
	for _, id := range cited {
		if !met[id] {
			r, _ := requirements.Lookup(id)
			out = append(out, fmt.Sprintf("%s needs %v (requirements/catalog.yaml) but no spec citing it declares Needs for them all", id, r.Needs))
		}
	}
	return out
}

// declares reports whether have implies every capability of want.
func declares(have, want []Capability) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h Capability) bool { return h.Implies(w) }) {
			return false
		}
	}
	return true
}

// Declarations returns every spec declared so far (after tree construction).
func Declarations() []Declaration {
	h.decl.mu.Lock()
	defer h.decl.mu.Unlock()
	return append([]Declaration(nil), h.decl.list...)
}

// declParts collects the arguments of one declaration and its problems.
type declParts struct {
	where    string
	reqs     []string
	needs    []Capability
	keys     []string
	tags     []Tag
	declared SpecID
	body     func(SpecContext)
	deco     []any
	problems []string
	cell     cellParts
}

func (p *declParts) errorf(format string, a ...any) {
	p.problems = append(p.problems, p.where+": "+fmt.Sprintf(format, a...))
}

// add sorts one argument of ConformanceIt into its part.
func (p *declParts) add(a any) {
	switch v := a.(type) {
	case SpecID:
		if p.declared != "" {
			p.errorf("spec ID declared twice (%s, %s)", p.declared, v)
		}
		if !idPattern.MatchString(string(v)) {
			p.errorf("spec ID %q is not of the form area.slug (lower case, digits, dashes)", v)
		}
		p.declared = v
	case ReqIDs:
		p.reqs = append(p.reqs, v...)
	case NeedList:
		p.needs = append(p.needs, v...)
	case ProfileKeyList:
		for _, k := range v {
			if !api.KnownKey(k) {
				p.errorf("unknown profile key %q in ProfileKeys (see api/profile.default.yaml)", k)
			}
		}
		p.keys = append(p.keys, v...)
	case Capability:
		p.needs = append(p.needs, v)
	case Tag:
		if !frozenTags[v] {
			p.errorf("label %q is not in the frozen list (destructive, slow, sandbox-controls, live, webhooks)", v)
		}
		p.tags = append(p.tags, v)
	case func(SpecContext):
		if p.body != nil {
			p.errorf("more than one body")
		}
		p.body = v
	case Labels:
		p.errorf("use the frozen Tags (Destructive, Slow, ...) instead of ginkgo Label(%v)", v)
	case string:
		p.errorf("unexpected string argument %q (requirement IDs go in Reqs(...))", v)
	case func():
		p.errorf("the body must be func(ctx SpecContext)")
	default:
		if !p.addCell(a) {
			p.deco = append(p.deco, a)
		}
	}
}

// labelSet is the spec's labels: its requirement IDs and their areas, the
// tags its needs imply, and its own tags.
func (p *declParts) labelSet() map[string]bool {
	set := map[string]bool{}
	for _, id := range p.reqs {
		if _, ok := requirements.Lookup(id); !ok {
			p.errorf("unknown requirement ID %q (not in requirements/catalog.yaml)", id)
			continue
		}
		set[id] = true
		if area := requirements.Area(id); area != "" {
			set[area] = true
		}
	}
	for _, n := range p.needs {
		switch {
		case !n.Known():
			p.errorf("unknown capability %q", n)
		case n.IsControl():
			set[string(SandboxControls)] = true
		case n == CapLiveTier2 || n == CapLiveLowKYB:
			set[string(Live)] = true
		case n == CapWebhookReceiver:
			set[string(Webhooks)] = true
		}
	}
	for _, t := range p.tags {
		set[string(t)] = true
	}
	p.cellLabels(set)
	return set
}

// SlowPriority is the Ginkgo SpecPriority a Slow spec gets unless it declares
// its own: the long poles start first, so a parallel run ends sooner.
const SlowPriority = SpecPriority(1)

// priority returns the Ginkgo decorators with the spec priority its tags
// imply (Slow → SlowPriority) appended, unless one is declared.
func (p *declParts) priority() []any {
	for _, d := range p.deco {
		if _, ok := d.(SpecPriority); ok {
			return p.deco
		}
	}
	for _, t := range p.tags {
		if t == Slow {
			return append(p.deco, SlowPriority)
		}
	}
	return p.deco
}

// parseDecl validates a declaration; problems are returned, not recorded.
func parseDecl(text, where string, containers []string, args []any) (d Declaration, body func(SpecContext), deco []any, problems []string) {
	p := &declParts{where: where}
	for _, a := range args {
		p.add(a)
	}
	if text == "" {
		p.errorf("empty spec text")
	}
	if len(p.reqs) == 0 {
		p.errorf("no requirement IDs: add Reqs(\"AREA-NN\", ...)")
	}
	if p.body == nil {
		p.errorf("no body func(ctx SpecContext)")
		p.body = func(SpecContext) {}
	}
	labels := []string{}
	for l := range p.labelSet() {
		labels = append(labels, l)
	}
	id := string(p.declared)
	if id == "" {
		p.errorf("no spec ID: declare SpecID(\"area.slug\") (a stable short ID; suites/inventory.yaml lists them)")
		id = "undeclared:" + where
	}
	labels = append(labels, result.IDLabelPrefix+id)
	sort.Strings(labels)
	full := strings.TrimSpace(strings.Join(append(append([]string{}, containers...), text), " "))
	d = p.withCell(Declaration{ID: id, Text: text, FullText: full, Reqs: p.reqs, Needs: p.needs, Tags: p.tags, Labels: labels, Where: where, ProfileKeys: p.keys})
	return d, p.body, p.priority(), p.problems
}

// ConformanceIt declares one spec, as Ginkgo's It does, and records what it
// verifies. text reads as the rule; id is its stable short ID (area.slug,
// kept through rewordings); args are any of Reqs(...) (required: the
// catalogue IDs the spec proves), Needs(...), Tags of the frozen list
// (Destructive, Slow, SandboxControls, Live, Webhooks), Ginkgo decorators
// (Serial, Ordered, FlakeAttempts, SpecTimeout, ...) and exactly one body
// func(ctx SpecContext). Labels applied: the frozen tags, the area of every
// requirement ID (requirements.Area) and the IDs themselves.
//
// The body runs only when every Need is met (else Skip with the reason) and,
// for Destructive specs, when no LIVE credentials write (neither a LIVE
// primary nor, for specs labelled Live, the MPH_LIVE_* ones) or --allow-live
// was given (see live_guard.go). A malformed declaration (no Reqs, unknown
// ID, duplicate spec ID, no body) is recorded, not panicked: Run and Preview
// refuse the whole selection with a DeclarationError.
//
// It returns true so that it can be used at package level as
// var _ = ConformanceIt(...), though specs normally sit inside a Describe.
func ConformanceIt(text string, id SpecID, args ...any) bool {
	cl := types.NewCodeLocation(1)
	where := fmt.Sprintf("%s:%d %q", cl.FileName, cl.LineNumber, text)
	containers := CurrentTreeConstructionNodeReport().ContainerHierarchyTexts
	d, body, deco, problems := parseDecl(text, where, containers, append([]any{id}, args...))
	recordDecl(strings.Join(containers, "\x00")+"\x00"+where, d, problems)
	guard := specGuard(d)
	run := func(ctx SpecContext) {
		guard()
		body(ctx)
	}
	itArgs := append([]any{Label(d.Labels...)}, deco...)
	itArgs = append(itArgs, run, cl)
	return It(text, itArgs...)
}

// specGuard returns the check every spec body runs first: it skips with the
// reason when a Need is unmet or when the spec would write with LIVE
// credentials that --allow-live did not release.
func specGuard(d Declaration) func() {
	labelSet := map[string]bool{}
	for _, l := range d.Labels {
		labelSet[l] = true
	}
	destructive := labelSet[string(Destructive)]
	return func() {
		if reason := missing(d.Needs); reason != "" {
			Skip(reason)
		}
		NeedDetermined(d.ProfileKeys...)
		if destructive && h.liveRefused() {
			Skip("refused: the primary credentials are LIVE and this spec is destructive; " + AllowLiveHint + " to run it")
		}
		if destructive && labelSet[string(Live)] && !h.liveWritesAllowed() {
			Skip("refused: this spec writes with LIVE credentials (" + liveVars + "), which can spend real money; " + AllowLiveHint + " to run it")
		}
	}
}

// recordDecl keeps one declaration per key (the tree may be built twice:
// once to preview the selection, once to run) and checks IDs are unique.
func recordDecl(key string, d Declaration, problems []string) {
	h.decl.mu.Lock()
	defer h.decl.mu.Unlock()
	if h.decl.seen[key] {
		return
	}
	h.decl.seen[key] = true
	if prev, dup := h.decl.ids[d.ID]; dup {
		problems = append(problems, fmt.Sprintf("%s: spec ID %s is already used by %s (declare a distinct SpecID or change the text)", d.Where, d.ID, prev))
	}
	h.decl.ids[d.ID] = d.Where
	h.decl.list = append(h.decl.list, d)
	h.decl.errors = append(h.decl.errors, problems...)
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
