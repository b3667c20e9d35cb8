// Package threshold parses and evaluates release gates such as
// "secure:p99<150ms", "token:success>=99.9%" or "list:rate429<1%".
//
// Grammar: ENDPOINT ":" METRIC OP VALUE, where
//
//	ENDPOINT  token | list | secure | all | any endpoint name in the summary
//	METRIC    latency (open model): min mean p50 p90 p95 p99 p99.9 max
//	          service latency: svc-p50 svc-p99 ...; send lag: lag-p50 lag-p99 ...
//	          ratios: success (valid 2xx) rate429 errors invalid (answers
//	          failing status, Content-Type or schema checks) achieved
//	          (achieved/offered rate)
//	          rates: rps (achieved send rate) throughput (2xx/s)
//	          counts: requests
//	OP        < <= > >=
//	VALUE     a duration for latencies (150ms, 1.5s; a bare number is ms),
//	          a percentage or fraction for ratios (99.9%, 0.999),
//	          a number for rates and counts.
package threshold

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

type kind int

const (
	kLatency kind = iota
	kRatio
	kNumber
)

// Threshold is one parsed gate.
type Threshold struct {
	Raw      string
	Endpoint string
	Metric   string
	Op       string
	Value    float64 // ms for latencies, fraction for ratios
	Default  bool    // added by WithDefaults, not given by the user
	kind     kind
}

// DefaultSuccess is the gate applied to "all" when the user gives no success
// threshold: invalid answers, 429s and errors all count against it.
const DefaultSuccess = "all:success>=99%"

// successFloor is always applied: no run passes at 0% success.
const successFloor = "all:success>0%"

// WithDefaults returns ts plus the default gates: DefaultSuccess when ts has
// no success threshold, else the floor all:success>0% unless ts already
// bounds all:success above zero.
func WithDefaults(ts []Threshold) []Threshold {
	own, allBounded := false, false
	for _, t := range ts {
		if t.Metric != "success" {
			continue
		}
		own = true
		if t.Endpoint == "all" && (t.Op == ">" || t.Value > 0) && (t.Op == ">" || t.Op == ">=") {
			allBounded = true
		}
	}
	add := DefaultSuccess
	switch {
	case own && allBounded:
		return ts
	case own:
		add = successFloor
	}
	d, err := Parse(add)
	if err != nil {
		panic(err) // a constant
	}
	d.Default = true
	return append(append([]Threshold(nil), ts...), d)
}

var latencyNames = map[string]bool{"min": true, "mean": true, "p50": true, "p90": true, "p95": true, "p99": true, "p99.9": true, "p999": true, "max": true}

// Parse parses one threshold.
func Parse(s string) (Threshold, error) {
	raw := strings.TrimSpace(s)
	ep, rest, ok := strings.Cut(raw, ":")
	if !ok || ep == "" {
		return Threshold{}, fmt.Errorf("threshold %q: want ENDPOINT:METRIC<VALUE, e.g. secure:p99<150ms", s)
	}
	var op string
	idx := -1
	for i, c := range rest {
		if c == '<' || c == '>' {
			idx = i
			op = string(c)
			if i+1 < len(rest) && rest[i+1] == '=' {
				op += "="
			}
			break
		}
	}
	if idx <= 0 {
		return Threshold{}, fmt.Errorf("threshold %q: missing metric or comparison (<, <=, >, >=)", s)
	}
	t := Threshold{Raw: raw, Endpoint: strings.TrimSpace(ep), Metric: strings.ToLower(strings.TrimSpace(rest[:idx])), Op: op}
	val := strings.TrimSpace(rest[idx+len(op):])
	if val == "" {
		return Threshold{}, fmt.Errorf("threshold %q: missing value", s)
	}
	m := t.Metric
	for _, p := range []string{"svc-", "lag-"} {
		m = strings.TrimPrefix(m, p)
	}
	var err error
	switch {
	case latencyNames[m]:
		t.kind = kLatency
		t.Value, err = parseMs(val)
	case m == "success" || m == "rate429" || m == "errors" || m == "invalid" || m == "achieved":
		if m != t.Metric {
			return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q", s, t.Metric)
		}
		t.kind = kRatio
		t.Value, err = parseRatio(val)
	case m == "rps" || m == "throughput" || m == "requests":
		if m != t.Metric {
			return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q", s, t.Metric)
		}
		t.kind = kNumber
		t.Value, err = strconv.ParseFloat(val, 64)
		if err == nil && (t.Value < 0 || math.IsNaN(t.Value) || math.IsInf(t.Value, 0)) {
			err = fmt.Errorf("must be a finite number >= 0")
		}
	default:
		return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q (want p50, p90, p95, p99, p99.9, max, mean, min, svc-p99, lag-p99, success, rate429, errors, invalid, achieved, rps, throughput, requests)", s, t.Metric)
	}
	if err != nil {
		return Threshold{}, fmt.Errorf("threshold %q: bad value %q: %v", s, val, err)
	}
	return t, nil
}

// ParseAll parses several thresholds (a value may hold several separated by commas).
func ParseAll(in []string) ([]Threshold, error) {
	var out []Threshold
	for _, s := range in {
		for _, part := range strings.Split(s, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			t, err := Parse(part)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}

func parseMs(v string) (float64, error) {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("must be >= 0")
		}
		return f, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("not a duration")
	}
	if d < 0 {
		return 0, fmt.Errorf("must be >= 0")
	}
	return float64(d) / float64(time.Millisecond), nil
}

func parseRatio(v string) (float64, error) {
	pct := strings.HasSuffix(v, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a number")
	}
	if pct {
		f /= 100
	}
	if f < 0 || f > 1 {
		return 0, fmt.Errorf("ratio must be within 0..1 (or 0%%..100%%)")
	}
	return f, nil
}

// Result of evaluating one threshold.
type Result struct {
	Threshold string  `json:"threshold"`
	Endpoint  string  `json:"endpoint"`
	Actual    float64 `json:"actual"`
	Limit     float64 `json:"limit"`
	Unit      string  `json:"unit"`
	Pass      bool    `json:"pass"`
	Note      string  `json:"note,omitempty"`
	Default   bool    `json:"default,omitempty"` // a default gate (see WithDefaults)
}

// Value extracts the threshold's metric from a summary.
func (t Threshold) Measure(s metrics.Summary) (float64, string) {
	ls := s.Latency
	m := t.Metric
	switch {
	case strings.HasPrefix(m, "svc-"):
		ls, m = s.ServiceLatency, m[4:]
	case strings.HasPrefix(m, "lag-"):
		ls, m = s.SendLag, m[4:]
	}
	switch m {
	case "min":
		return ls.Min, "ms"
	case "mean":
		return ls.Mean, "ms"
	case "p50":
		return ls.P50, "ms"
	case "p90":
		return ls.P90, "ms"
	case "p95":
		return ls.P95, "ms"
	case "p99":
		return ls.P99, "ms"
	case "p99.9", "p999":
		return ls.P999, "ms"
	case "max":
		return ls.Max, "ms"
	case "success":
		return s.SuccessRatio, "ratio"
	case "rate429":
		return s.Rate429, "ratio"
	case "errors":
		return s.ErrorRatio, "ratio"
	case "invalid":
		return s.InvalidRatio, "ratio"
	case "achieved":
		if s.OfferedRate <= 0 {
			return 0, "ratio"
		}
		return math.Min(1, s.AchievedRate/s.OfferedRate), "ratio"
	case "rps":
		return s.AchievedRate, "req/s"
	case "throughput":
		return s.Throughput, "req/s"
	case "requests":
		return float64(s.Requests), "requests"
	}
	return math.NaN(), ""
}

func (t Threshold) compare(v float64) bool {
	switch t.Op {
	case "<":
		return v < t.Value
	case "<=":
		return v <= t.Value
	case ">":
		return v > t.Value
	case ">=":
		return v >= t.Value
	}
	return false
}

// Evaluate checks every threshold against the summaries (matched by endpoint
// name). A threshold naming an endpoint absent from the run fails with a note.
func Evaluate(ts []Threshold, sums []metrics.Summary) []Result {
	by := map[string]metrics.Summary{}
	for _, s := range sums {
		by[s.Endpoint] = s
	}
	out := make([]Result, 0, len(ts))
	for _, t := range ts {
		r := Result{Threshold: t.Raw, Endpoint: t.Endpoint, Limit: t.Value, Default: t.Default}
		s, ok := by[t.Endpoint]
		if !ok || s.Requests == 0 {
			r.Note = "no requests measured for this endpoint"
			out = append(out, r)
			continue
		}
		r.Actual, r.Unit = t.Measure(s)
		r.Pass = t.compare(r.Actual)
		out = append(out, r)
	}
	return out
}

// Breached reports whether any result failed.
func Breached(rs []Result) bool {
	for _, r := range rs {
		if !r.Pass {
			return true
		}
	}
	return false
}

// Format renders a result as one line.
func (r Result) Format() string {
	verdict := "PASS"
	if !r.Pass {
		verdict = "FAIL"
	}
	name := r.Threshold
	if r.Default {
		name += " [default gate]"
	}
	if r.Note != "" {
		return fmt.Sprintf("%s  %s  (%s)", verdict, name, r.Note)
	}
	switch r.Unit {
	case "ratio":
		return fmt.Sprintf("%s  %s  (actual %.3f%%)", verdict, name, r.Actual*100)
	case "ms":
		return fmt.Sprintf("%s  %s  (actual %.2fms)", verdict, name, r.Actual)
	}
	return fmt.Sprintf("%s  %s  (actual %.2f %s)", verdict, name, r.Actual, r.Unit)
}
