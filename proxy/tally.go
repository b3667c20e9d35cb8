package proxy

import (
	"sort"
	"sync"
	"time"

	"github.com/merchant-harness/mph/requirements"
)

// Side says whose conformance a rule checks.
type Side string

const (
	Server Side = "server" // the API implementation behind the proxy
	Client Side = "client" // the caller in front of it
)

// Violation is one broken rule in one exchange.
type Violation struct {
	Exchange int64     `json:"exchange"`
	Time     time.Time `json:"time"`
	Side     Side      `json:"side"`
	Rule     string    `json:"rule"` // requirement ID
	Endpoint string    `json:"endpoint"`
	What     string    `json:"what"`  // redacted, escaped
	Where    string    `json:"where"` // e.g. "response body /data/maskedPan"
	Client   string    `json:"client"`
}

// RuleStat counts one rule (requirement ID, side) over the session.
type RuleStat struct {
	Side       Side   `json:"side"`
	Rule       string `json:"rule"`
	Text       string `json:"text"` // the catalogue's wording
	Checked    int64  `json:"checked"`
	Violations int64  `json:"violations"`
}

// EndpointStat counts one endpoint over the session.
type EndpointStat struct {
	Endpoint         string        `json:"endpoint"`
	Exchanges        int64         `json:"exchanges"`
	ServerViolations int64         `json:"serverViolations"`
	ClientViolations int64         `json:"clientViolations"`
	Statuses         map[int]int64 `json:"statuses"`
}

// ClientStat counts one caller (remote host) over the session.
type ClientStat struct {
	Client           string `json:"client"`
	Exchanges        int64  `json:"exchanges"`
	ClientViolations int64  `json:"clientViolations"`
}

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
	OverCap        int64
	UpstreamErrors int64 // the upstream could not be reached or answered nothing
	Undecodable    int64 // answers in a content encoding the proxy cannot read (passed unchecked)
	Unchecked      int64 // finished after the session closed
	Dropped        int64 // violations counted but not kept (beyond maxKept)
	CheckErrors    int64 // exchanges whose checks failed inside the proxy
	rules          map[string]*RuleStat
	endpoints      map[string]*EndpointStat
	clients        map[string]*ClientStat
	kept           []Violation
}

func newTally() *Tally {
	return &Tally{rules: map[string]*RuleStat{}, endpoints: map[string]*EndpointStat{}, clients: map[string]*ClientStat{}}
}

func (t *Tally) add(f func(*Tally)) {
	t.mu.Lock()
	f(t)
	t.mu.Unlock()
}

func (t *Tally) rule(side Side, id string) *RuleStat {
	k := string(side) + "/" + id
	r := t.rules[k]
	if r == nil {
		req, _ := requirements.Lookup(id)
		r = &RuleStat{Side: side, Rule: id, Text: req.Text}
		t.rules[k] = r
	}
	return r
}

func (t *Tally) endpoint(key string) *EndpointStat {
	e := t.endpoints[key]
	if e == nil {
		e = &EndpointStat{Endpoint: key, Statuses: map[int]int64{}}
		t.endpoints[key] = e
	}
	return e
}

// client returns the row of a caller (the shared "other" row beyond maxClients).
func (t *Tally) client(host string) *ClientStat {
	c := t.clients[host]
	if c == nil {
		if len(t.clients) >= maxClients {
			host = "(other)"
			if c = t.clients[host]; c != nil {
				return c
			}
		}
		c = &ClientStat{Client: host}
		t.clients[host] = c
	}
	return c
}

func (t *Tally) checked(side Side, id string) {
	t.mu.Lock()
	t.rule(side, id).Checked++
	t.mu.Unlock()
}

func (t *Tally) violation(v Violation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.rule(v.Side, v.Rule)
	r.Checked++
	r.Violations++
	e := t.endpoint(v.Endpoint)
	if v.Side == Server {
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

// Snapshot is a consistent copy of the tally for reports.
type Snapshot struct {
	Exchanges      int64          `json:"exchanges"`
	NotAPI         int64          `json:"notApi"`
	Unknown        int64          `json:"unknownEndpoint"`
	OverCap        int64          `json:"bodiesOverCap"`
	UpstreamErrors int64          `json:"upstreamErrors"`
	Undecodable    int64          `json:"undecodableBodies"`
	Unchecked      int64          `json:"unchecked"`
	Dropped        int64          `json:"violationsNotKept"`
	CheckErrors    int64          `json:"checkErrors"`
	Server         int64          `json:"serverViolations"`
	Client         int64          `json:"clientViolations"`
	Rules          []RuleStat     `json:"rules"`
	Endpoints      []EndpointStat `json:"endpoints"`
	Clients        []ClientStat   `json:"clients"`
	Violations     []Violation    `json:"violations"`
}

// Snapshot copies the tally, rules and endpoints sorted.
func (t *Tally) Snapshot() Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := Snapshot{
		Exchanges: t.Exchanges, NotAPI: t.NotAPI, Unknown: t.Unknown, OverCap: t.OverCap,
		UpstreamErrors: t.UpstreamErrors, Unchecked: t.Unchecked, Dropped: t.Dropped, CheckErrors: t.CheckErrors, Undecodable: t.Undecodable,
		Violations: append([]Violation(nil), t.kept...),
	}
	for _, r := range t.rules {
		s.Rules = append(s.Rules, *r)
		if r.Side == Server {
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

// Count returns the violations of a side ("" = both).
func (s Snapshot) Count(side Side) int64 {
	switch side {
	case Server:
		return s.Server
	case Client:
		return s.Client
	}
	return s.Server + s.Client
}
