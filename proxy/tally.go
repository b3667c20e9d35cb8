package proxy

import (
	"sort"
	"sync"
	"time"

	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/requirements"
)

// maxClients bounds the callers counted apart; the rest share one row.
const maxClients = 1000

// maxKept bounds the violations kept for the reports; counts go on.
const maxKept = 10000

// Tally is the running account of a session. Safe for concurrent use.
type Tally struct {
	mu        sync.Mutex
	Exchanges int64 // every proxied exchange
	NotAPI    int64 // outside the merchant root (passed unchecked)
	Unknown   int64 // under the merchant root but no endpoint of the document
	// OverCap counts exchanges with a body larger than the inspection cap
	// (streamed whole, its body checks skipped).
	OverCap int64
	// OverMemory counts exchanges whose body found the proxy's inspection
	// memory (Options.MemoryCap) in use: streamed whole, uninspected.
	OverMemory     int64
	UpstreamErrors int64 // the upstream could not be reached or answered nothing
	Undecodable    int64 // answers in a content encoding the proxy cannot read (passed unchecked)
	Unchecked      int64 // finished after the session closed
	Dropped        int64 // violations counted but not kept (beyond maxKept)
	CheckErrors    int64 // exchanges whose checks failed inside the proxy
	rules          map[string]*session.RuleStat
	endpoints      map[string]*session.EndpointStat
	clients        map[string]*session.ClientStat
	kept           []session.Violation
}

func newTally() *Tally {
	return &Tally{rules: map[string]*session.RuleStat{}, endpoints: map[string]*session.EndpointStat{}, clients: map[string]*session.ClientStat{}}
}

func (t *Tally) add(f func(*Tally)) {
	t.mu.Lock()
	f(t)
	t.mu.Unlock()
}

func (t *Tally) rule(side session.Side, id string) *session.RuleStat {
	k := string(side) + "/" + id
	r := t.rules[k]
	if r == nil {
		req, _ := requirements.Lookup(id)
		r = &session.RuleStat{Side: side, Rule: id, Text: req.Text}
		t.rules[k] = r
	}
	return r
}

func (t *Tally) endpoint(key string) *session.EndpointStat {
	e := t.endpoints[key]
	if e == nil {
		e = &session.EndpointStat{Endpoint: key, Statuses: map[int]int64{}}
		t.endpoints[key] = e
	}
	return e
}

// client returns the row of a caller (the shared "other" row beyond maxClients).
func (t *Tally) client(host string) *session.ClientStat {
	c := t.clients[host]
	if c == nil {
		if len(t.clients) >= maxClients {
			host = "(other)"
			if c = t.clients[host]; c != nil {
				return c
			}
		}
		c = &session.ClientStat{Client: host}
		t.clients[host] = c
	}
	return c
}

func (t *Tally) checked(side session.Side, id string) {
	t.mu.Lock()
	t.rule(side, id).Checked++
	t.mu.Unlock()
}

func (t *Tally) violation(v session.Violation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.rule(v.Side, v.Rule)
	r.Checked++
	r.Violations++
	e := t.endpoint(v.Endpoint)
	if v.Side == session.Server {
		e.ServerViolations++
	} else {
		e.ClientViolations++
		t.client(v.Client).ClientViolations++
	}
	if len(t.kept) < maxKept {
		t.kept = append(t.kept, v)
	} else {
		t.Dropped++
	}
}

// Snapshot copies the tally, rules and endpoints sorted.
func (t *Tally) Snapshot() session.Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := session.Snapshot{
		Exchanges: t.Exchanges, NotAPI: t.NotAPI, Unknown: t.Unknown, OverCap: t.OverCap, OverMemory: t.OverMemory,
		UpstreamErrors: t.UpstreamErrors, Unchecked: t.Unchecked, Dropped: t.Dropped, CheckErrors: t.CheckErrors, Undecodable: t.Undecodable,
		Violations: append([]session.Violation(nil), t.kept...),
	}
	for _, r := range t.rules {
		s.Rules = append(s.Rules, *r)
		if r.Side == session.Server {
			s.Server += r.Violations
		} else {
			s.Client += r.Violations
		}
	}
	sort.Slice(s.Rules, func(i, j int) bool {
		if s.Rules[i].Side != s.Rules[j].Side {
			return s.Rules[i].Side > s.Rules[j].Side // server first
		}
		return s.Rules[i].Rule < s.Rules[j].Rule
	})
	for _, e := range t.endpoints {
		c := *e
		c.Statuses = make(map[int]int64, len(e.Statuses))
		for k, v := range e.Statuses {
			c.Statuses[k] = v
		}
		s.Endpoints = append(s.Endpoints, c)
	}
	sort.Slice(s.Endpoints, func(i, j int) bool { return s.Endpoints[i].Endpoint < s.Endpoints[j].Endpoint })
	for _, c := range t.clients {
		s.Clients = append(s.Clients, *c)
	}
	sort.Slice(s.Clients, func(i, j int) bool {
		if s.Clients[i].ClientViolations != s.Clients[j].ClientViolations {
			return s.Clients[i].ClientViolations > s.Clients[j].ClientViolations
		}
		return s.Clients[i].Client < s.Clients[j].Client
	})
	return s
}

// NewReport builds the report of a session from the proxy's tally (package
// report renders it).
func (p *Proxy) NewReport(listen, failOn string, started, ended time.Time, interrupted bool) session.Report {
	s := p.tally.Snapshot()
	r := session.Report{
		Tool: "mph proxy", Upstream: p.opts.Upstream, Listen: listen,
		Started: started, Ended: ended, Interrupted: interrupted, FailOn: failOn, Snapshot: s,
	}
	r.Failed = session.Failing(s, failOn)
	return r
}
