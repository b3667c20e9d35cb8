package fault

import (
	"strings"
)

// memberFault is a fault of a family that corrupts members of one kind of
// successful answer after the handler: a wrong type, form or value of a
// single field, so that the suites' rule for that field alone fails. An
// area's fault file declares its family in a loop with declareMember.
type memberFault struct {
	id     ID
	method string
	match  func(rest string) bool      // the API path below the base
	mutate func(answer map[string]any) // the decoded top-level answer
}

var memberFaults []memberFault

// declareMember registers a fault of the family (see memberFault).
func declareMember(area, name, desc, method string, match func(rest string) bool, mutate func(map[string]any), reqs ...string) ID {
	id := declare(area, name, desc, reqs...)
	memberFaults = append(memberFaults, memberFault{id: id, method: method, match: match, mutate: mutate})
	return id
}

// rewritesMembers reports whether a member fault is on.
func (f Set) rewritesMembers() bool {
	for _, m := range append(memberFaults[:len(memberFaults):len(memberFaults)], cardFaults...) {
		if f.On(m.id) {
			return true
		}
	}
	return false
}

// ApplyMembers corrupts a successful answer (its status code, the decoded
// top-level answer top of the request method of the API path rest below
// the base) as the active member faults say.
func (f Set) ApplyMembers(method, rest string, code int, top map[string]any) {
	if code >= 300 {
		return
	}
	for _, m := range memberFaults {
		if f.On(m.id) && method == m.method && m.match(rest) {
			m.mutate(top)
		}
	}
	f.applyCardFaults(top)
}

// dataMember is the object under an envelope's data (nil when there is none).
func dataMember(top map[string]any) map[string]any {
	d, _ := top["data"].(map[string]any)
	return d
}

// pathIs and pathEnds match the API path below the base.
func pathIs(p string) func(string) bool { return func(rest string) bool { return rest == p } }

func pathEnds(prefix, suffix string) func(string) bool {
	return func(rest string) bool { return strings.HasPrefix(rest, prefix) && strings.HasSuffix(rest, suffix) }
}

// cardFaults are member faults applied to every card object (one carrying
// cardType) of any successful answer.
var cardFaults []memberFault

// declareCard registers a fault corrupting every card object answered.
func declareCard(area, name, desc string, mutate func(card map[string]any), reqs ...string) ID {
	id := declare(area, name, desc, reqs...)
	cardFaults = append(cardFaults, memberFault{id: id, mutate: mutate})
	return id
}

// applyCardFaults walks an answer and corrupts its card objects.
func (f Set) applyCardFaults(n any) {
	switch x := n.(type) {
	case map[string]any:
		if _, isCard := x["cardType"]; isCard {
			for _, m := range cardFaults {
				if f.On(m.id) {
					m.mutate(x)
				}
			}
		}
		for _, c := range x {
			f.applyCardFaults(c)
		}
	case []any:
		for _, c := range x {
			f.applyCardFaults(c)
		}
	}
}
