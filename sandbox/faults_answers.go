package sandbox

import (
	"net/http"
	"strings"
)

// memberFault is a fault of a family that corrupts members of one kind of
// successful answer after the handler: a wrong type, form or value of a
// single field, so that the suites' rule for that field alone fails. An
// area's fault file declares its family in a loop with declareMemberFault.
type memberFault struct {
	id     faultID
	method string
	match  func(rest string) bool      // the API path below the base
	mutate func(answer map[string]any) // the decoded top-level answer
}

var memberFaults []memberFault

// declareMemberFault registers a fault of the family (see memberFault).
func declareMemberFault(area, name, desc, method string, match func(rest string) bool, mutate func(map[string]any), reqs ...string) faultID {
	id := declareFault(area, name, desc, reqs...)
	memberFaults = append(memberFaults, memberFault{id: id, method: method, match: match, mutate: mutate})
	return id
}

// rewritesMembers reports whether a member fault is on.
func (f faultSet) rewritesMembers() bool {
	for _, m := range memberFaults {
		if f.on(m.id) {
			return true
		}
	}
	return false
}

// applyMemberFaults corrupts a successful answer as the active member faults say.
func (s *Server) applyMemberFaults(r *http.Request, rest string, code int, top map[string]any) {
	if code >= 300 {
		return
	}
	for _, m := range memberFaults {
		if s.faults.on(m.id) && r.Method == m.method && m.match(rest) {
			m.mutate(top)
		}
	}
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
