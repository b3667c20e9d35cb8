// Package compare compares a run with its baseline (mph load compare),
// endpoint by endpoint: each change tested for significance, and gated by
// the --max-regression limits. It reads reports and runs nothing.
package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/redact"
)

// Method states how compare decides that a change is real. It is
// printed in every comparison so that a reader can judge the verdict.
const Method = "Percentiles: distribution-free 95% confidence interval of each run's percentile " +
	"from order statistics (binomial ranks) over the stored HDR histogram, and, with at least 8 time-series " +
	"intervals in each run, a 95% block-bootstrap interval (whole intervals resampled, 400 replicates, fixed " +
	"seed) that counts a stall slowing many neighbouring requests as one event; a change is significant when " +
	"the two runs' intervals are disjoint by both methods (each about a 0.5% test). Whole distribution: Mann-Whitney rank test " +
	"computed from the HDR buckets (ties as mid-ranks, normal approximation with tie correction) and, with at least 8 " +
	"intervals in each run, the same test over the intervals' mean latencies, which must agree. Success, " +
	"error and 429 ratios: two-proportion z-test; throughput: Poisson rate test on the 2xx counts; the rank " +
	"test, these and throughput one-sided at α = 0.01. A regression is a change that is significant, in the worse " +
	"direction and beyond its --max-regression limit (for the rank test: P(current slower) above one half by more " +
	"than the limit); metrics without a limit are reported, never gated."

// DefaultRegression is compare's default gate: what a reviewer would call a
// regression. Each limit is the tolerated worsening of a significant
// change; docs/load.md gives the false-alarm rate measured over A/A pairs.
const DefaultRegression = "p50=10%,p90=10%,p99=10%,rank=5pp,success=-0.1pp,rate429=0.1pp"

// compareZ is the one-sided critical value at α = 0.01.
const compareZ = 2.326

// RegressionLimit is the largest tolerated worsening of one metric.
type RegressionLimit struct {
	Endpoint string  // "" applies to every endpoint
	Metric   string  // p50 p90 p99 p99.9 throughput success errors rate429
	Allowed  float64 // relative (0.1 = 10%) for latency and throughput, absolute ratio (0.001 = 0.1pp) otherwise
	Raw      string
}

var compareRelative = map[string]bool{"p50": true, "p90": true, "p99": true, "p99.9": true, "throughput": true}
var comparePoints = map[string]bool{"success": true, "errors": true, "rate429": true, "rank": true}

// ParseRegressionLimits parses "p99=10%,success=-0.1pp,secure:p50=5%". The
// magnitude is the tolerated worsening whatever its sign: latency, error and
// 429 ratios worsen upwards, success and throughput downwards. Latency and
// throughput take a relative limit (%), ratios percentage points (pp), the
// rank test percentage points of P(current slower) above one half.
// "none" (or "") sets no limit.
func ParseRegressionLimits(s string) ([]RegressionLimit, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return nil, nil
	}
	var out []RegressionLimit
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("--max-regression %q: want metric=limit (e.g. p99=10%%, success=-0.1pp)", part)
		}
		l := RegressionLimit{Raw: part}
		if ep, m, ok := strings.Cut(k, ":"); ok {
			l.Endpoint, k = ep, m
		}
		l.Metric = strings.TrimSpace(k)
		if l.Metric == "p999" {
			l.Metric = "p99.9"
		}
		v = strings.TrimSpace(v)
		var unit string
		switch {
		case strings.HasSuffix(v, "pp"):
			unit, v = "pp", strings.TrimSuffix(v, "pp")
		case strings.HasSuffix(v, "%"):
			unit, v = "%", strings.TrimSuffix(v, "%")
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("--max-regression %q: %q is not a number", part, v)
		}
		switch {
		case compareRelative[l.Metric] && unit == "%":
		case comparePoints[l.Metric] && unit == "pp":
		case compareRelative[l.Metric]:
			return nil, fmt.Errorf("--max-regression %q: %s takes a relative limit in %% (e.g. %s=10%%)", part, l.Metric, l.Metric)
		case comparePoints[l.Metric]:
			return nil, fmt.Errorf("--max-regression %q: %s takes percentage points (e.g. %s=0.1pp)", part, l.Metric, l.Metric)
		default:
			return nil, fmt.Errorf("--max-regression %q: unknown metric %q (want p50, p90, p99, p99.9, throughput, rank, success, errors, rate429)", part, l.Metric)
		}
		l.Allowed = math.Abs(f) / 100
		out = append(out, l)
	}
	return out, nil
}

// ReadRunReport reads a summary.json, or the one in a run directory, and
// refuses reports that hold no run figures.
func ReadRunReport(in string) (*summary.Report, string, error) {
	path := in
	if fi, err := os.Stat(in); err == nil && fi.IsDir() {
		path = filepath.Join(in, "summary.json")
	}
	r, err := summary.ReadReport(path)
	if err != nil {
		return nil, path, err
	}
	if r.Kind != "run" && r.Kind != "merge" {
		return nil, path, fmt.Errorf("%s is a %s report, not a run", path, r.Kind)
	}
	return r, path, nil
}

// Compare compares a current run with its baseline, endpoint by endpoint.
func Compare(base, cur *summary.Report, basePath, curPath string, limits []RegressionLimit) (*summary.Comparison, error) {
	c := &summary.Comparison{Baseline: runInfo(base, basePath), Current: runInfo(cur, curPath), Method: Method, Regressions: []string{}}
	for _, l := range limits {
		c.Limits = append(c.Limits, l.Raw)
	}
	c.Warnings = comparability(base, cur)
	curBy := map[string]metrics.Summary{}
	for _, s := range cur.Endpoints {
		curBy[s.Endpoint] = s
	}
	seen := map[string]bool{}
	for _, b := range base.Endpoints {
		s, ok := curBy[b.Endpoint]
		if !ok {
			c.Warnings = append(c.Warnings, fmt.Sprintf("endpoint %s is in the baseline only", b.Endpoint))
			continue
		}
		seen[b.Endpoint] = true
		ec, err := compareEndpoint(b, s, limits)
		if err != nil {
			return nil, err
		}
		for _, m := range ec.Metrics {
			if m.Regression {
				c.Regressions = append(c.Regressions, fmt.Sprintf("%s %s: %s (limit %s)", ec.Endpoint, m.Metric, m.Change(), m.Limit))
			}
		}
		c.Endpoints = append(c.Endpoints, ec)
	}
	for _, s := range cur.Endpoints {
		if !seen[s.Endpoint] {
			c.Warnings = append(c.Warnings, fmt.Sprintf("endpoint %s is in the current run only", s.Endpoint))
		}
	}
	if len(c.Endpoints) == 0 {
		return nil, fmt.Errorf("compare: the runs have no endpoint in common")
	}
	c.Regressed = len(c.Regressions) > 0
	return c, nil
}

// runInfo identifies a run; the strings read from summary.json are redacted
// and escaped again (a hand-edited summary is target text like any other).
func runInfo(r *summary.Report, path string) summary.RunInfo {
	return summary.RunInfo{Path: redact.Safe(path), Scenario: redact.Safe(r.Scenario), Target: redact.Safe(r.Target), Schedule: redact.Safe(r.Schedule),
		Start: r.Start.UTC().Format("2006-01-02T15:04:05Z"), Window: r.WindowSeconds}
}

// comparability warns about differences that make a comparison doubtful
// without making it meaningless.
func comparability(b, c *summary.Report) []string {
	var w []string
	if b.Scenario != c.Scenario {
		w = append(w, fmt.Sprintf("scenarios differ: %q vs %q", b.Scenario, c.Scenario))
	}
	if b.Schedule != c.Schedule {
		w = append(w, fmt.Sprintf("schedules differ: %q vs %q (throughput and latency depend on the offered load)", b.Schedule, c.Schedule))
	}
	if b.Target != c.Target {
		w = append(w, fmt.Sprintf("targets differ: %q vs %q", b.Target, c.Target))
	}
	for _, r := range []*summary.Report{b, c} {
		if r.Interrupted || r.Aborted != "" {
			w = append(w, fmt.Sprintf("the run of %s was interrupted or aborted: its figures cover part of the schedule", r.Start.UTC().Format("2006-01-02T15:04:05Z")))
		}
	}
	for i := range w {
		w[i] = redact.Safe(w[i])
	}
	return w
}

func compareEndpoint(b, c metrics.Summary, limits []RegressionLimit) (summary.EndpointComparison, error) {
	ec := summary.EndpointComparison{Endpoint: b.Endpoint, BaselineN: b.Requests, CurrentN: c.Requests}
	be, err := metrics.FromSummary(b)
	if err != nil {
		return ec, fmt.Errorf("compare: baseline: %w", err)
	}
	ce, err := metrics.FromSummary(c)
	if err != nil {
		return ec, fmt.Errorf("compare: current: %w", err)
	}
	ec.Superiority, ec.RankZ, ec.RankP = RankTest(be.Latency, ce.Latency)
	ec.Metrics = append(ec.Metrics, rankDelta(ec.Superiority, ec.RankZ, be.Series, ce.Series))
	for i, q := range []struct {
		name string
		q    float64
	}{{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99.9", 99.9}} {
		m := percentileDelta(q.name, q.q, be.Latency, ce.Latency)
		blockCheck(&m, q.q, be.Series, ce.Series, rand.New(rand.NewPCG(uint64(i+1), 0x6d7068)))
		ec.Metrics = append(ec.Metrics, m)
	}
	ec.Metrics = append(ec.Metrics,
		rateDelta(b, c),
		ratioDelta("success", b.Requests, c.Requests, b.SuccessRatio, c.SuccessRatio, false),
		ratioDelta("errors", b.Requests, c.Requests, b.ErrorRatio, c.ErrorRatio, true),
		ratioDelta("rate429", b.Requests, c.Requests, b.Rate429, c.Rate429, true),
	)
	for i := range ec.Metrics {
		applyLimit(&ec.Metrics[i], ec.Endpoint, limits)
	}
	return ec, nil
}

// applyLimit marks a regression: significant, worse and beyond the limit. An
// endpoint-specific limit wins over a general one.
func applyLimit(m *summary.MetricDelta, ep string, limits []RegressionLimit) {
	var lim *RegressionLimit
	for i := range limits {
		l := &limits[i]
		if l.Metric != m.Metric || (l.Endpoint != "" && l.Endpoint != ep) {
			continue
		}
		if lim == nil || l.Endpoint != "" {
			lim = l
		}
	}
	if lim == nil {
		return
	}
	m.Limit = lim.Raw
	worsening := math.Abs(m.Delta)
	if compareRelative[m.Metric] {
		worsening = math.Abs(m.Relative)
		if m.Baseline == 0 && m.Delta != 0 {
			worsening = math.Inf(1)
		}
	}
	m.Regression = m.Worse && m.Significant && worsening > lim.Allowed+1e-12
}

// rankDelta states the rank test as a metric: P(current slower) against
// one half over every request, significant when the one-sided test rejects
// at α = 0.01. Requests are not independent (a stall slows many
// neighbours), so with at least MinBlocks intervals in each run the same
// test must also reject over the intervals' mean latencies, one figure per
// second, as the block bootstrap does for percentiles.
func rankDelta(sup, z float64, b, c *metrics.Series) summary.MetricDelta {
	m := summary.MetricDelta{Metric: "rank", Unit: "P(slower)", Baseline: 0.5, Current: sup, Delta: sup - 0.5}
	m.Worse = m.Delta > 0
	m.Significant = math.Abs(z) > compareZ
	m.Evidence = fmt.Sprintf("Mann-Whitney z = %.2f over requests", z)
	bm, cm := b.IntervalMeans(), c.IntervalMeans()
	if len(bm) < metrics.MinBlocks || len(cm) < metrics.MinBlocks {
		m.Evidence += fmt.Sprintf("; %d and %d intervals: too few for the test over intervals", len(bm), len(cm))
		return m
	}
	isup, iz := rankOfSamples(bm, cm)
	m.Significant = m.Significant && math.Abs(iz) > compareZ && (iz > 0) == (z > 0)
	m.Evidence += fmt.Sprintf("; z = %.2f over the %d and %d intervals' means (P(slower) %.3f)", iz, len(bm), len(cm), isup)
	return m
}

// rankOfSamples is the Mann-Whitney test of two small samples: P(current
// above baseline) + ½P(tie) and the z of the normal approximation with a
// continuity correction.
func rankOfSamples(base, cur []float64) (superiority, z float64) {
	var u float64
	for _, c := range cur {
		for _, b := range base {
			switch {
			case c > b:
				u++
			case c == b:
				u += 0.5
			}
		}
	}
	n1, n2 := float64(len(base)), float64(len(cur))
	mean, sd := n1*n2/2, math.Sqrt(n1*n2*(n1+n2+1)/12)
	d := u - mean
	switch {
	case d > 0.5:
		d -= 0.5
	case d < -0.5:
		d += 0.5
	default:
		d = 0
	}
	return u / (n1 * n2), d / sd
}

// percentileDelta compares one percentile with order-statistic intervals.
func percentileDelta(name string, q float64, b, c *hdr.Histogram) summary.MetricDelta {
	blo, bv, bhi := quantileCI(b, q)
	clo, cv, chi := quantileCI(c, q)
	m := summary.MetricDelta{Metric: name, Unit: "ms", Baseline: bv, Current: cv, Delta: cv - bv,
		BaselineCI: [2]float64{blo, bhi}, CurrentCI: [2]float64{clo, chi}}
	if bv > 0 {
		m.Relative = m.Delta / bv
	}
	m.Worse = cv > bv
	m.Significant = clo > bhi || chi < blo
	m.Evidence = fmt.Sprintf("95%% CI %s–%s vs %s–%s", summary.Ms(blo), summary.Ms(bhi), summary.Ms(clo), summary.Ms(chi))
	return m
}

// blockCheck adds the block bootstrap's verdict: with enough intervals in
// both runs, a change counts as significant only if the block intervals are
// disjoint too.
func blockCheck(m *summary.MetricDelta, q float64, b, c *metrics.Series, rng *rand.Rand) {
	blo, bhi, bn, okb := b.BlockQuantileCI(q, 400, rng)
	clo, chi, cn, okc := c.BlockQuantileCI(q, 400, rng)
	if !okb || !okc {
		m.Evidence += fmt.Sprintf("; %d and %d intervals: too few for a block bootstrap", bn, cn)
		return
	}
	m.BlockCI = [2][2]float64{{blo, bhi}, {clo, chi}}
	m.Significant = m.Significant && (clo > bhi || chi < blo)
	m.Evidence += fmt.Sprintf("; block bootstrap (%d vs %d intervals) %s–%s vs %s–%s", bn, cn, summary.Ms(blo), summary.Ms(bhi), summary.Ms(clo), summary.Ms(chi))
}

// quantileCI returns the q-th percentile (ms) of h and a distribution-free
// 95% confidence interval: the order statistics at ranks nq ± 1.96√(nq(1−q)).
// An interval reaching past the sample's ends is closed by its min or max.
func quantileCI(h *hdr.Histogram, q float64) (lo, v, hi float64) {
	n := float64(h.TotalCount())
	if n == 0 {
		return 0, 0, 0
	}
	p := q / 100
	sd := math.Sqrt(n * p * (1 - p))
	at := func(rank float64) float64 {
		switch {
		case rank < 1:
			return float64(h.Min()) / 1000
		case rank >= n:
			return float64(h.Max()) / 1000
		}
		return float64(h.ValueAtQuantile(100*rank/n)) / 1000
	}
	return at(math.Floor(n*p - 1.96*sd)), float64(h.ValueAtQuantile(q)) / 1000, at(math.Ceil(n*p + 1.96*sd))
}

// rateDelta compares 2xx throughput with a Poisson rate test on the counts.
func rateDelta(b, c metrics.Summary) summary.MetricDelta {
	m := summary.MetricDelta{Metric: "throughput", Unit: "req/s", Baseline: b.Throughput, Current: c.Throughput, Delta: c.Throughput - b.Throughput}
	if b.Throughput > 0 {
		m.Relative = m.Delta / b.Throughput
	}
	m.Worse = m.Delta < 0
	bt, ct := spanSeconds(b), spanSeconds(c)
	if bt <= 0 || ct <= 0 {
		m.Evidence = "no time span"
		return m
	}
	bk, ck := b.Throughput*bt, c.Throughput*ct // 2xx counts
	se := math.Sqrt(bk/(bt*bt) + ck/(ct*ct))
	if se > 0 {
		z := m.Delta / se
		m.Significant = math.Abs(z) > compareZ
		m.Evidence = fmt.Sprintf("z = %.2f", z)
	}
	return m
}

func spanSeconds(s metrics.Summary) float64 {
	if s.First.IsZero() || s.LastDone.IsZero() {
		return 0
	}
	return s.LastDone.Sub(s.First).Seconds()
}

// ratioDelta compares a share of requests with a two-proportion z-test.
func ratioDelta(name string, bn, cn uint64, bp, cp float64, upIsWorse bool) summary.MetricDelta {
	m := summary.MetricDelta{Metric: name, Unit: "ratio", Baseline: bp, Current: cp, Delta: cp - bp}
	m.Worse = (upIsWorse && m.Delta > 0) || (!upIsWorse && m.Delta < 0)
	if bn == 0 || cn == 0 {
		m.Evidence = "no requests"
		return m
	}
	pool := (bp*float64(bn) + cp*float64(cn)) / float64(bn+cn)
	se := math.Sqrt(pool * (1 - pool) * (1/float64(bn) + 1/float64(cn)))
	if se == 0 {
		m.Evidence = "identical (no variation)"
		return m
	}
	z := m.Delta / se
	m.Significant = math.Abs(z) > compareZ
	m.Evidence = fmt.Sprintf("z = %.2f", z)
	return m
}

// RankTest is a Mann-Whitney test computed from two HDR histograms' buckets:
// values in one bucket are ties. It returns P(current > baseline) + ½P(tie),
// the normal-approximation z (tie-corrected) and its two-sided p-value.
func RankTest(base, cur *hdr.Histogram) (superiority, z, p float64) {
	na, nb := float64(base.TotalCount()), float64(cur.TotalCount())
	if na == 0 || nb == 0 {
		return 0.5, 0, 1
	}
	type cell struct{ a, b float64 }
	cells := map[int64]*cell{}
	for _, bar := range base.Distribution() {
		if bar.Count > 0 {
			cells[bar.From] = &cell{a: float64(bar.Count)}
		}
	}
	for _, bar := range cur.Distribution() {
		if bar.Count > 0 {
			if c := cells[bar.From]; c != nil {
				c.b = float64(bar.Count)
			} else {
				cells[bar.From] = &cell{b: float64(bar.Count)}
			}
		}
	}
	keys := make([]int64, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var below, u, ties float64 // below: baseline values under the current bucket
	for _, k := range keys {
		c := cells[k]
		u += c.b * (below + c.a/2)
		below += c.a
		t := c.a + c.b
		ties += t*t*t - t
	}
	n := na + nb
	superiority = u / (na * nb)
	v := na * nb / 12 * ((n + 1) - ties/(n*(n-1)))
	if v <= 0 {
		return superiority, 0, 1
	}
	z = (u - na*nb/2) / math.Sqrt(v)
	return superiority, z, math.Erfc(math.Abs(z) / math.Sqrt2)
}
