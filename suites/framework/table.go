package framework

import (
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/client"
)

// TableRule is one entry of a ConformanceTable: a spec of its own that names
// the requirement it proves (see ConformanceEntry).
type TableRule struct {
	text string
	id   SpecID
	row  any
	args []any
	cl   types.CodeLocation
}

// ConformanceEntry declares one entry of a ConformanceTable: text reads as the
// rule, id is its stable short ID, row is what the table body receives, and
// args are declaration parts as for ConformanceIt (Reqs is required per
// entry: a failure names its own rule; Needs, Tags and Ginkgo decorators
// work as there).
func ConformanceEntry[T any](text string, id SpecID, row T, args ...any) TableRule {
	return TableRule{text: text, id: id, row: row, args: args, cl: types.NewCodeLocation(1)}
}

// tableRow is the parameter Ginkgo passes to the table body: the entry's
// guard and its row.
type tableRow[T any] struct {
	guard func()
	row   T
}

// ConformanceTable declares a Ginkgo DescribeTable whose entries are each one
// spec proving its own requirement (a matrix over endpoints, fields or
// inputs). args are shared declaration parts (Needs, Tags, Reqs every entry
// also proves), Ginkgo container decorators (Ordered, Serial, ...) and the
// ConformanceEntry rules. Each entry is declared and validated like a
// ConformanceIt (IDs, labels, spec ID uniqueness) and runs behind the same
// guard (unmet Needs and LIVE refusals skip it with the reason).
func ConformanceTable[T any](text string, body func(SpecContext, T), args ...any) bool {
	cl := types.NewCodeLocation(1)
	containers := append(CurrentTreeConstructionNodeReport().ContainerHierarchyTexts, text)
	shared, containerDeco, rules := splitTableArgs(args)
	tableArgs := append([]any{cl}, containerDeco...)
	tableArgs = append(tableArgs, func(ctx SpecContext, r tableRow[T]) {
		r.guard()
		body(ctx, r.row)
	})
	if len(rules) == 0 {
		where := fmt.Sprintf("%s:%d %q", cl.FileName, cl.LineNumber, text)
		recordDecl(where, Declaration{ID: "table:" + where, Where: where}, []string{where + ": a ConformanceTable without ConformanceEntry rules"})
	}
	for _, r := range rules {
		tableArgs = append(tableArgs, tableEntry[T](r, containers, shared))
	}
	return DescribeTable(text, tableArgs...)
}

// splitTableArgs sorts a table's arguments: declaration parts every entry
// shares, Ginkgo decorators of the table container, and the entries.
func splitTableArgs(args []any) (shared, containerDeco []any, rules []TableRule) {
	for _, a := range args {
		switch v := a.(type) {
		case TableRule:
			rules = append(rules, v)
		case ReqIDs, NeedList, ProfileKeyList, Capability, Tag, Labels, string, func(SpecContext), func(), EndpointSlugs, RuleID:
			shared = append(shared, v)
		default:
			containerDeco = append(containerDeco, v)
		}
	}
	return shared, containerDeco, rules
}

// tableEntry declares one rule and returns its Ginkgo entry.
func tableEntry[T any](r TableRule, containers []string, shared []any) TableEntry {
	where := fmt.Sprintf("%s:%d %q", r.cl.FileName, r.cl.LineNumber, r.text)
	row, ok := r.row.(T)
	declArgs := append(append([]any{r.id}, shared...), r.args...)
	declArgs = append(declArgs, func(SpecContext) {})
	d, _, deco, problems := parseDecl(r.text, where, containers, declArgs)
	if !ok {
		problems = append(problems, fmt.Sprintf("%s: the row is a %T, the table body takes a %T", where, r.row, row))
	}
	if !hasOwnReqs(r.args) {
		problems = append(problems, where+": a table entry names its own requirement: add Reqs(\"AREA-NN\") to the ConformanceEntry")
	}
	recordDecl(strings.Join(containers, "\x00")+"\x00"+where, d, problems)
	entryArgs := append([]any{r.cl, Label(d.Labels...)}, deco...)
	entryArgs = append(entryArgs, tableRow[T]{guard: specGuard(d), row: row})
	return Entry(r.text, entryArgs...)
}

func hasOwnReqs(args []any) bool {
	for _, a := range args {
		if ids, ok := a.(ReqIDs); ok && len(ids) > 0 {
			return true
		}
	}
	return false
}

// Shared returns a fixture made once and shared by the specs that call it
// (the entries of a table that only read it): the first successful make is
// kept; a failed one is retried by the next caller. Only for fixtures no
// spec changes. It runs inside a spec body, after its guard, so a skipped
// or refused spec never creates it. The HTTP exchanges that made it are
// recorded again in every spec that uses it, so each failure report shows
// (and can reproduce) the requests its verdict rests on.
func Shared[T any](make func(SpecContext) T) func(SpecContext) T {
	var (
		mu   sync.Mutex
		done bool
		v    T
		made []*client.Exchange
	)
	return func(ctx SpecContext) T {
		mu.Lock()
		defer mu.Unlock()
		rec := h.recorder()
		if done {
			for _, e := range made {
				rec.Add(e)
			}
			return v
		}
		before := len(rec.Exchanges())
		v = make(ctx)
		made = rec.Exchanges()[before:]
		done = true
		return v
	}
}
