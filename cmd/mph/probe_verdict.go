package main

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/loadtest"
)

// probeBreaches names the rules of the API document a rate-limit probe saw
// broken ("" when none): a sampled 429 answer without the error envelope,
// statusCode 429 and the reason phrase Too Many Requests (RATE-02), and a
// path whose target answered nothing but errors or redirects. What the
// probe measures beyond that (onset, ceiling, burst, Retry-After, recovery)
// the document does not state, so it is reported, never a failure.
func probeBreaches(p *loadtest.ProbeReport) string {
	if p == nil {
		return ""
	}
	var why []string
	for _, pp := range p.Paths {
		if pp.NoSuccess != "" {
			// A limit cannot be measured where nothing succeeds: like a
			// load run at 0% success, a failure, never "no limit found".
			why = append(why, pp.Endpoint+": "+pp.NoSuccess)
		}
		bad := pp.Sampled429 - pp.EnvelopeOK
		if bad <= 0 {
			continue
		}
		first := ""
		if len(pp.EnvelopeErrors) > 0 {
			first = " (first: " + truncate(strings.Join(strings.Fields(pp.EnvelopeErrors[0]), " "), 200) + ")"
		}
		why = append(why, fmt.Sprintf("%s: %d of %d sampled 429 answers break the error envelope (RATE-02)%s", pp.Endpoint, bad, pp.Sampled429, first))
	}
	return strings.Join(why, "; ")
}
