// Package session holds the account of one proxy session: the data the
// proxy tallies and report/ renders (JUnit, JSON, HTML, Markdown).
package session

import (
	"fmt"
	"time"
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

// Line renders a violation as one log line.
func (v Violation) Line() string {
	return fmt.Sprintf("%s VIOLATION %s %s %q #%d from %s: %s (at %s)",
		v.Time.UTC().Format("2006-01-02T15:04:05.000Z"), v.Side, v.Rule, v.Endpoint, v.Exchange, v.Client, v.What, v.Where)
}

// Snapshot is a consistent copy of the tally for reports.
type Snapshot struct {
	Exchanges      int64          `json:"exchanges"`
	NotAPI         int64          `json:"notApi"`
	Unknown        int64          `json:"unknownEndpoint"`
	OverCap        int64          `json:"bodiesOverCap"`
	OverMemory     int64          `json:"bodiesOverMemory"` // passed uninspected: the inspection memory was in use
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

// Report is the account of one proxy session, written on exit.
type Report struct {
	Tool        string    `json:"tool"`
	Upstream    string    `json:"upstream"`
	Listen      string    `json:"listen"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	Interrupted bool      `json:"interrupted"`
	InProgress  bool      `json:"inProgress"` // an interim report of a running session
	FailOn      string    `json:"failOn"`     // server, client, any or none
	Failed      bool      `json:"failed"`     // violations on the --fail-on side
	Snapshot
}

// Failing reports whether a snapshot has violations on the --fail-on side.
func Failing(s Snapshot, failOn string) bool {
	switch failOn {
	case "server":
		return s.Server > 0
	case "client":
		return s.Client > 0
	case "none":
		return false
	}
	return s.Server+s.Client > 0
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
