package proxy

import (
	"time"

	"github.com/merchant-harness/mph/proxy/session"
)

// NewReport builds the report of a session from the proxy's tally.
func (p *Proxy) NewReport(listen, failOn string, started, ended time.Time, interrupted bool) session.Report {
	s := p.tally.Snapshot()
	r := session.Report{
		Tool: "mph proxy", Upstream: p.opts.Upstream, Listen: listen,
		Started: started, Ended: ended, Interrupted: interrupted, FailOn: failOn, Snapshot: s,
	}
	r.Failed = session.Failing(s, failOn)
	return r
}
