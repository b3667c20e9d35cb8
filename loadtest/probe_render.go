package loadtest

import (
	"fmt"
	"html"
	"sort"
	"strings"
)

// MeasuredSeconds is the sum of the measured windows of every attack of the
// probe (ladder steps and blasts); quiet periods and recovery waits are not
// included.
func (p *ProbeReport) MeasuredSeconds() float64 {
	var t float64
	for _, pp := range p.Paths {
		t += pp.BlastSeconds
		for _, s := range pp.Steps {
			t += s.Window
		}
	}
	return t
}

// Markdown renders the probe section.
func (p *ProbeReport) Markdown() string {
	var b strings.Builder
	b.WriteString("\n## Rate-limit characterisation (429)\n\n")
	b.WriteString("| path | onset req/s | accepted ceiling 2xx/s | burst ≈ | coarse first 429 | envelope valid | Retry-After | honoured | recovery | headers |\n")
	b.WriteString("| :- | -: | -: | -: | -: | :- | :- | :- | -: | :- |\n")
	for _, pp := range p.Paths {
		if !pp.LimitFound {
			fmt.Fprintf(&b, "| %s | none found | | | | | | | | %s |\n", pp.Endpoint, strings.Join(pp.Notes, "; "))
			continue
		}
		hs := make([]string, 0, len(pp.Headers))
		for h := range pp.Headers {
			hs = append(hs, fmt.Sprintf("%s (%.0f%%)", h, pp.HeaderPresence[h]*100))
		}
		sort.Strings(hs)
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.0f | %.1f | %d/%d | %s | %v (%d, then %d after waiting) | %.0fms (first status %d) | %s |\n",
			pp.Endpoint, pp.OnsetRate, pp.Ceiling, pp.Burst, pp.CoarseOnset, pp.EnvelopeOK, pp.Sampled429,
			targetText(pp.RetryAfter), pp.Honoured, pp.JustBefore, pp.AfterWait, pp.RecoveryMs, pp.FirstAfterLoad, strings.Join(hs, ", "))
	}
	if p.Topology != nil {
		b.WriteString(p.Topology.Markdown())
	}
	for _, pp := range p.Paths {
		fmt.Fprintf(&b, "\n### %s steps\n\n| phase | offered/s | requests | 2xx/s | 429 share | p99 |\n| :- | -: | -: | -: | -: | -: |\n", pp.Endpoint)
		for _, s := range pp.Steps {
			fmt.Fprintf(&b, "| %s | %.1f | %d | %.1f | %.2f%% | %s |\n", s.Phase, s.Offered, s.Requests, s.OKRate, s.Share429*100, ms(s.P99Ms))
		}
		for _, e := range pp.EnvelopeErrors {
			fmt.Fprintf(&b, "- envelope problem: %s\n", e)
		}
		for _, n := range pp.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
		if pp.Polite != nil {
			pr := pp.Polite
			fmt.Fprintf(&b, "- polite client (backoff + full jitter, honours Retry-After): %d/%d done, %d attempts, %d× 429, %d failed, %.1fs (%.1f/s)\n",
				pr.Completed, pr.Work, pr.Attempts, pr.Got429, pr.Failed, pr.ElapsedSec, pr.EffectiveRS)
		}
	}
	return b.String()
}

// HTML renders charts of each probe: the ladder by offered rate and the
// blast's status codes over time.
func (p *ProbeReport) HTML() string {
	var b strings.Builder
	for _, pp := range p.Paths {
		fmt.Fprintf(&b, "<h2>429 probe: %s</h2>", html.EscapeString(pp.Endpoint))
		b.WriteString(ladderChart(pp.Steps))
		if len(pp.Series) > 0 {
			var t, o2, o4 []float64
			for _, s := range pp.Series {
				t = append(t, s.T)
				o2 = append(o2, s.OK)
				o4 = append(o4, s.R429)
			}
			b.WriteString(lineChart(fmt.Sprintf("Saturating blast at %.0f req/s: status codes over time (429 onset)", pp.BlastRate), "s", "req/s", t, []line{
				{"2xx", "#2ca02c", o2}, {"429", "#ff7f0e", o4},
			}, false))
		}
	}
	return b.String()
}

// ladderChart plots every ladder step (coarse, fine, confirm) by its offered
// rate: accepted 2xx/s and refused 429/s against the offered req/s.
func ladderChart(steps []ProbeStep) string {
	if len(steps) == 0 {
		return ""
	}
	st := append([]ProbeStep(nil), steps...)
	sort.SliceStable(st, func(i, j int) bool { return st[i].Offered < st[j].Offered })
	var xs, off, ok, r429 []float64
	for _, s := range st {
		xs = append(xs, s.Offered)
		off = append(off, s.Offered)
		ok = append(ok, s.OKRate)
		r429 = append(r429, s.Offered*s.Share429)
	}
	return lineChart("Ladder by offered rate (x: offered req/s): 2xx/s and 429/s per step", "/s", "req/s", xs, []line{
		{"offered", "#7f7f7f", off}, {"2xx/s", "#2ca02c", ok}, {"429/s", "#ff7f0e", r429},
	}, false)
}

// Markdown renders the limiter groups and the checks behind them.
func (t *Topology) Markdown() string {
	var b strings.Builder
	b.WriteString("\n### Limiter groups\n\nPaths share a limiter when saturating one makes a gentle stream on the other meet 429s " +
		"(more than 25% refused; under 5%: independent). The key is found by calling a saturated path with a second token of the " +
		"same merchant and with a second merchant. Refill: 2xx gathered after a short wait from an empty bucket; burst: 2xx of a " +
		"fast burst into a full bucket, less the refill during it.\n\n")
	b.WriteString("| paths | key | burst | refill/s | Retry-After | tokens at Retry-After | declared policy | evidence |\n| :- | :- | -: | -: | -: | -: | :- | :- |\n")
	for _, g := range t.Groups {
		pol := ""
		if g.Policy != nil {
			pol = fmt.Sprintf("`%s`", targetText(g.Policy.Raw))
			if g.Policy.WindowSeconds > 0 {
				pol += fmt.Sprintf(" (%.4g/s)", g.Policy.Quota/g.Policy.WindowSeconds)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f | %.1f | %s | %.1f | %s | %s |\n", strings.Join(g.Paths, ", "), g.Key, g.Burst, g.Refill,
			targetText(g.RetryAfter), g.TokensAtRetryAfter, pol, g.KeyEvidence)
	}
	if len(t.Pairs) > 0 {
		b.WriteString("\n| saturated | watched | watch requests | watched 429 share | verdict |\n| :- | :- | -: | -: | :- |\n")
		for _, c := range t.Pairs {
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f%% | %s |\n", c.Saturated, c.Watched, c.Requests, c.Share429*100, c.Verdict)
		}
	}
	if len(t.Keys) > 0 {
		b.WriteString("\n| saturated path | called by | requests | 429 share | same bucket |\n| :- | :- | -: | -: | :- |\n")
		for _, k := range t.Keys {
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f%% | %s |\n", k.Path, k.Identity, k.Requests, k.Share429*100, yesNo(k.Limited))
		}
	}
	for _, g := range t.Groups {
		if len(g.Headers) == 0 {
			continue
		}
		keys := make([]string, 0, len(g.Headers))
		for k := range g.Headers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("`%s: %s`", k, targetText(g.Headers[k])))
		}
		fmt.Fprintf(&b, "- headers seen on %s: %s\n", strings.Join(g.Paths, ", "), strings.Join(parts, ", "))
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}

// targetText makes a value the target chose safe for a terminal and for a
// Markdown table or code span: control characters, backticks and pipes
// become '?', and it is cut at 120 runes.
func targetText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '`' || r == '|' || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}
