package loadtest

import (
	"fmt"
	"sort"
	"strings"
)

// Result classification: a result's URL names its endpoint by the path
// patterns the registered scenarios declare. It runs once per result in the
// attack's consumer, so it allocates nothing.

// endpointMatcher is an endpoint's path pattern split into segments.
type endpointMatcher struct {
	ep       Endpoint
	segs     []string // "" stands for a {wildcard}
	literals int
}

func (r *registry) addEndpoint(ep Endpoint) error {
	if ep.Name == "" || ep.Method == "" || !strings.HasPrefix(ep.Path, "/") || ep.Status < 200 || ep.Status > 299 {
		return fmt.Errorf("endpoint %+v: want a name, a method, a path starting with / and a 2xx status", ep)
	}
	for _, m := range r.endpoints {
		switch {
		case m.ep == ep:
			return nil // declared again by another scenario sending to it
		case m.ep.Name == ep.Name:
			return fmt.Errorf("endpoint %q declared as %s %s and as %s %s", ep.Name, m.ep.Method, m.ep.Path, ep.Method, ep.Path)
		}
	}
	m := endpointMatcher{ep: ep}
	for _, s := range strings.Split(strings.Trim(ep.Path, "/"), "/") {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			s = ""
		} else {
			m.literals++
		}
		m.segs = append(m.segs, s)
	}
	r.endpoints = append(r.endpoints, m)
	r.rules[ep.Name] = answerRule{status: ep.Status, schema: ep.Schema}
	// Most specific first: more segments, then more literal ones.
	sort.SliceStable(r.endpoints, func(i, j int) bool {
		a, b := r.endpoints[i], r.endpoints[j]
		if len(a.segs) != len(b.segs) {
			return len(a.segs) > len(b.segs)
		}
		return a.literals > b.literals
	})
	return nil
}

// matches reports whether the URL path p ends with the pattern's segments.
func (m *endpointMatcher) matches(p string) bool {
	for i := len(m.segs) - 1; i >= 0; i-- {
		j := strings.LastIndexByte(p, '/')
		if j < 0 {
			return false
		}
		if s := p[j+1:]; s == "" || (m.segs[i] != "" && s != m.segs[i]) {
			return false
		}
		p = p[:j]
	}
	return true
}

// Classify maps a result URL to its endpoint name ("other" when no
// registered endpoint matches).
func Classify(u string) string { return scenarios.classify(u) }

func (r *registry) classify(u string) string {
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	for i := range r.endpoints {
		if r.endpoints[i].matches(p) {
			return r.endpoints[i].ep.Name
		}
	}
	return "other"
}
