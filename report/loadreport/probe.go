package loadreport

import (
	"fmt"
	"sort"
	"strings"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/report"
)

// ProbeMarkdown renders the rate-limit probe section alone.
func ProbeMarkdown(p *summary.ProbeReport) report.Reporter {
	return report.Text(func() string { return probeMarkdown(p) })
}

// TopologyMarkdown renders the limiter groups and the checks behind them.
func TopologyMarkdown(t *summary.Topology) report.Reporter {
	return report.Text(func() string { return topologyMarkdown(t) })
}

func probeMarkdown(p *summary.ProbeReport) string {
	var b strings.Builder
	b.WriteString("\n## Rate-limit characterisation (429)\n\n")
	probeTable(p).markdown(&b)
	if p.Topology != nil {
		b.WriteString(topologyMarkdown(p.Topology))
	}
	for _, pp := range p.Paths {
		fmt.Fprintf(&b, "\n### %s steps\n\n", pp.Endpoint)
		stepTable(pp).markdown(&b)
		for _, f := range pathFacts(pp) {
			b.WriteString("- " + f.markdown() + "\n")
		}
	}
	return b.String()
}

func probeTable(p *summary.ProbeReport) table {
	t := table{Head: []string{"path", "onset req/s", "accepted ceiling 2xx/s", "burst ≈", "coarse first 429", "429s by RATE-02",
		"Retry-After", "honoured", "recovery", "headers"}, Align: "| :- | -: | -: | -: | -: | :- | :- | :- | -: | :- |"}
	for _, pp := range p.Paths {
		if pp.NoSuccess != "" {
			t.Rows = append(t.Rows, row(pp.Endpoint, "no verdict: nothing succeeded", "", "", "", "", "", "", "", targetText(pp.NoSuccess)))
			continue
		}
		if !pp.LimitFound {
			t.Rows = append(t.Rows, row(pp.Endpoint, "none found", "", "", "", "", "", "", "", strings.Join(pp.Notes, "; ")))
			continue
		}
		hs := make([]string, 0, len(pp.Headers))
		for h := range pp.Headers {
			hs = append(hs, fmt.Sprintf("%s (%.0f%%)", h, pp.HeaderPresence[h]*100))
		}
		sort.Strings(hs)
		t.Rows = append(t.Rows, row(pp.Endpoint, fmt.Sprintf("%.1f", pp.OnsetRate), fmt.Sprintf("%.1f", pp.Ceiling),
			fmt.Sprintf("%.0f", pp.Burst), fmt.Sprintf("%.1f", pp.CoarseOnset), judged429(pp.RATE02),
			targetText(pp.RetryAfter), fmt.Sprintf("%v (%d, then %d after waiting)", pp.Honoured, pp.JustBefore, pp.AfterWait),
			fmt.Sprintf("%.0fms (first status %d)", pp.RecoveryMs, pp.FirstAfterLoad), strings.Join(hs, ", ")))
	}
	return t
}

func stepTable(pp summary.PathProbe) table {
	t := table{Head: []string{"phase", "offered/s", "requests", "2xx/s", "429 share", "p99"}, Align: "| :- | -: | -: | -: | -: | -: |"}
	for _, s := range pp.Steps {
		t.Rows = append(t.Rows, row(s.Phase, fmt.Sprintf("%.1f", s.Offered), fmt.Sprint(s.Requests), fmt.Sprintf("%.1f", s.OKRate),
			fmt.Sprintf("%.2f%%", s.Share429*100), ms(s.P99Ms)))
	}
	return t
}

func pathFacts(pp summary.PathProbe) []fact {
	var out []fact
	if pp.NoSuccess != "" {
		out = append(out, fact{Text: pp.NoSuccess})
	}
	for _, e := range pp.RATE02.Reasons {
		out = append(out, fact{Text: "429 breaking RATE-02: " + e})
	}
	for _, n := range pp.Notes {
		out = append(out, fact{Text: n})
	}
	if pr := pp.Polite; pr != nil {
		out = append(out, fact{Text: fmt.Sprintf("polite client (backoff + full jitter, honours Retry-After): %d/%d done, %d attempts, %d× 429, %d failed, %.1fs (%.1f/s)",
			pr.Completed, pr.Work, pr.Attempts, pr.Got429, pr.Failed, pr.ElapsedSec, pr.EffectiveRS)})
	}
	return out
}

const topologyNote = "Paths share a limiter when saturating one makes a gentle stream on the other meet 429s " +
	"(more than 25% refused; under 5%: independent). The key is found by calling a saturated path with a second token of the " +
	"same merchant and with a second merchant. Refill: 2xx gathered after a short wait from an empty bucket; burst: 2xx of a " +
	"fast burst into a full bucket, less the refill during it."

func topologyMarkdown(t *summary.Topology) string {
	var b strings.Builder
	b.WriteString("\n### Limiter groups\n\n" + topologyNote + "\n\n")
	for i, tb := range topologyTables(t) {
		if i > 0 {
			b.WriteString("\n")
		}
		tb.markdown(&b)
	}
	for _, f := range topologyFacts(t) {
		b.WriteString("- " + f + "\n")
	}
	return b.String()
}

// topologyTables are the groups, then the pair and key checks when made.
func topologyTables(t *summary.Topology) []table {
	groups := table{Head: []string{"paths", "key", "burst", "refill/s", "Retry-After", "tokens at Retry-After", "declared policy", "evidence"},
		Align: "| :- | :- | -: | -: | -: | -: | :- | :- |"}
	for _, g := range t.Groups {
		var pol cell
		if g.Policy != nil {
			pol.Code = targetText(g.Policy.Raw)
			if g.Policy.WindowSeconds > 0 {
				pol.Text = fmt.Sprintf(" (%.4g/s)", g.Policy.Quota/g.Policy.WindowSeconds)
			}
		}
		r := row(strings.Join(g.Paths, ", "), g.Key, fmt.Sprintf("%.0f", g.Burst), fmt.Sprintf("%.1f", g.Refill),
			targetText(g.RetryAfter), fmt.Sprintf("%.1f", g.TokensAtRetryAfter), "", g.KeyEvidence)
		r[6] = pol
		groups.Rows = append(groups.Rows, r)
	}
	out := []table{groups}
	if len(t.Pairs) > 0 {
		pairs := table{Head: []string{"saturated", "watched", "watch requests", "watched 429 share", "verdict"}, Align: "| :- | :- | -: | -: | :- |"}
		for _, c := range t.Pairs {
			pairs.Rows = append(pairs.Rows, row(c.Saturated, c.Watched, fmt.Sprint(c.Requests), fmt.Sprintf("%.1f%%", c.Share429*100), c.Verdict))
		}
		out = append(out, pairs)
	}
	if len(t.Keys) > 0 {
		keys := table{Head: []string{"saturated path", "called by", "requests", "429 share", "same bucket"}, Align: "| :- | :- | -: | -: | :- |"}
		for _, k := range t.Keys {
			keys.Rows = append(keys.Rows, row(k.Path, k.Identity, fmt.Sprint(k.Requests), fmt.Sprintf("%.1f%%", k.Share429*100), yesNo(k.Limited)))
		}
		out = append(out, keys)
	}
	return out
}

// headerLine is the rate-limit headers seen on a group's paths.
type headerLine struct {
	On     string
	Values []string
}

func topologyFacts(t *summary.Topology) []string {
	out := []string{"429s of the topology's runs by RATE-02: " + judged429(t.RATE02)}
	for _, e := range t.RATE02.Reasons {
		out = append(out, "429 breaking RATE-02: "+e)
	}
	for _, h := range topologyHeaders(t) {
		out = append(out, fmt.Sprintf("headers seen on %s: `%s`", h.On, strings.Join(h.Values, "`, `")))
	}
	return append(out, t.Notes...)
}

func topologyHeaders(t *summary.Topology) []headerLine {
	var out []headerLine
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
			parts = append(parts, fmt.Sprintf("%s: %s", k, targetText(g.Headers[k])))
		}
		out = append(out, headerLine{On: strings.Join(g.Paths, ", "), Values: parts})
	}
	return out
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
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

// judged429 states how the 429s of a probe fared by RATE-02.
func judged429(j summary.Judged429) string {
	if j.Seen == 0 {
		return "none seen"
	}
	s := fmt.Sprintf("%d of %d in the error envelope", j.Envelope, j.Seen)
	if j.Gateway > 0 {
		s += fmt.Sprintf(", %d a gateway's", j.Gateway)
	}
	if j.Broken > 0 {
		s += fmt.Sprintf(", %d breaking it", j.Broken)
	}
	return s
}
