package loadtest

import (
	"fmt"
	"html"
	"strings"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

// lagShareLimit: when the send lag is at least this share of the
// open-model latency (at p50 or p99), the figure describes the generator
// more than the server.
const lagShareLimit = 0.25

// LagWarnings names the endpoints whose open-model latency is largely the
// generator's own send lag.
func LagWarnings(eps []metrics.Summary) []string {
	var out []string
	for _, s := range eps {
		if s.Requests == 0 {
			continue
		}
		for _, q := range []struct {
			name     string
			lag, lat float64
		}{{"p50", s.SendLag.P50, s.Latency.P50}, {"p99", s.SendLag.P99, s.Latency.P99}} {
			if q.lat > 0 && q.lag/q.lat >= lagShareLimit {
				out = append(out, fmt.Sprintf("%s: send lag %s is %.0f%% of the open-model %s %s; that latency describes the generator more than the server (service %s %s)",
					s.Endpoint, ms(q.lag), 100*q.lag/q.lat, q.name, ms(q.lat), q.name, ms(map[string]float64{"p50": s.ServiceLatency.P50, "p99": s.ServiceLatency.P99}[q.name])))
				break
			}
		}
	}
	return out
}

// headlineHTML sets the three latencies side by side per endpoint, with the
// lag's share of the open-model figure (in red from lagShareLimit).
func headlineHTML(eps []metrics.Summary) string {
	if len(eps) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<table class="headline"><tr><th>endpoint</th><th>open model p50</th><th>p99</th><th>service p50</th><th>p99</th><th>send lag p50</th><th>p99</th><th>lag share of p50 / p99</th></tr>`)
	for _, s := range eps {
		share := func(lag, lat float64) string {
			if lat <= 0 {
				return "–"
			}
			v := fmt.Sprintf("%.0f%%", 100*lag/lat)
			if lag/lat >= lagShareLimit {
				return `<span class="fail">` + v + `</span>`
			}
			return v
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s / %s</td></tr>",
			html.EscapeString(s.Endpoint), ms(s.Latency.P50), ms(s.Latency.P99), ms(s.ServiceLatency.P50), ms(s.ServiceLatency.P99),
			ms(s.SendLag.P50), ms(s.SendLag.P99), share(s.SendLag.P50, s.Latency.P50), share(s.SendLag.P99, s.Latency.P99))
	}
	b.WriteString("</table>") // the generator-bound warnings follow in the summary
	return b.String()
}
