// Package metrics turns a stream of vegeta results into per-endpoint figures
// with bounded memory: HDR histograms (open-model latency measured from the
// intended send time, service latency measured from the actual send, and the
// send lag between the two), status-code counts, byte counts and a bounded
// per-second time series. Summaries carry their histograms in the HDR
// compressed encoding so that runs from several machines merge exactly.
package metrics

import (
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Histogram range: 1 µs .. 10 min, 3 significant digits.
const (
	hdrMin    = 1
	hdrMax    = int64(10 * time.Minute / time.Microsecond)
	hdrDigits = 3
	maxErrors = 20 // distinct error strings kept per endpoint
)

func newHist() *hdr.Histogram { return hdr.New(hdrMin, hdrMax, hdrDigits) }

// Endpoint accumulates one endpoint's figures.
type Endpoint struct {
	Name     string
	Latency  *hdr.Histogram // µs, from intended send time to end of response
	Service  *hdr.Histogram // µs, from actual send to end of response (vegeta's latency)
	Lag      *hdr.Histogram // µs, actual send - intended send
	Requests uint64
	OK       uint64 // 2xx answers that passed validation (the successes)
	R429     uint64
	Invalid  uint64 // answers that failed validation (status, Content-Type or schema)
	// Of the 429 answers: those that broke RATE-02 (counted in Invalid
	// too), and those taken as a gateway's (not in the error envelope's
	// form, under the profile's rateLimits.envelope: optional).
	Invalid429, Gateway429 uint64
	Codes                  map[uint16]uint64 // 0 = transport error / timeout
	Errors                 map[string]uint64
	BytesIn                uint64
	BytesOut               uint64
	First                  time.Time // first actual send
	LastSent               time.Time
	LastDone               time.Time
	Series                 *Series
}

func newEndpoint(name string, start time.Time) *Endpoint {
	return &Endpoint{
		Name: name, Latency: newHist(), Service: newHist(), Lag: newHist(),
		Codes: map[uint16]uint64{}, Errors: map[string]uint64{}, Series: newSeries(start),
	}
}

// Recorder accumulates results of one run. It is not safe for concurrent use:
// a single consumer goroutine owns it.
type Recorder struct {
	Start     time.Time     // the attack's start: intended offsets are relative to it
	Warmup    time.Duration // results intended before Start+Warmup are not measured
	endpoints map[string]*Endpoint
	order     []string
	WarmupN   uint64 // results excluded as warm-up
}

// NewRecorder starts a recorder for an attack that began at start.
func NewRecorder(start time.Time, warmup time.Duration) *Recorder {
	return &Recorder{Start: start, Warmup: warmup, endpoints: map[string]*Endpoint{}}
}

// Endpoint returns (creating) the named endpoint's accumulator.
func (r *Recorder) Endpoint(name string) *Endpoint {
	e := r.endpoints[name]
	if e == nil {
		e = newEndpoint(name, r.Start.Add(r.Warmup))
		r.endpoints[name] = e
		r.order = append(r.order, name)
	}
	return e
}

// Endpoints in first-seen order.
func (r *Recorder) Endpoints() []*Endpoint {
	out := make([]*Endpoint, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.endpoints[n])
	}
	return out
}

// Add records one result for endpoint `name`, intended to be sent at
// Start+intended. It reports whether the result was measured (false for
// warm-up).
func (r *Recorder) Add(name string, res *vegeta.Result, intended time.Duration) bool {
	return r.AddChecked(name, res, intended, Check{})
}

// Check is what answer validation found.
type Check struct {
	// Invalid is why the answer failed validation ("" when it passed): it
	// counts as invalid, not as a success, and the reason is kept among the
	// endpoint's errors. An invalid 429 is counted as a 429 too.
	Invalid string
	// Gateway429: a 429 not in the error envelope's form, taken as a
	// gateway's answer.
	Gateway429 bool
}

// AddChecked is Add for an answer that validation checked.
func (r *Recorder) AddChecked(name string, res *vegeta.Result, intended time.Duration, c Check) bool {
	invalid := c.Invalid
	if intended < r.Warmup {
		r.WarmupN++
		return false
	}
	e := r.Endpoint(name)
	intendedAt := r.Start.Add(intended)
	lag := res.Timestamp.Sub(intendedAt)
	if lag < 0 {
		lag = 0
	}
	svc := res.Latency
	total := lag + svc
	lagUs, svcUs, totUs := us(lag), us(svc), us(total)
	_ = e.Latency.RecordValue(totUs)
	_ = e.Service.RecordValue(svcUs)
	_ = e.Lag.RecordValue(lagUs)

	e.Requests++
	e.Codes[res.Code]++
	e.BytesIn += res.BytesIn
	e.BytesOut += res.BytesOut
	if e.First.IsZero() || res.Timestamp.Before(e.First) {
		e.First = res.Timestamp
	}
	if res.Timestamp.After(e.LastSent) {
		e.LastSent = res.Timestamp
	}
	if end := res.Timestamp.Add(svc); end.After(e.LastDone) {
		e.LastDone = end
	}
	iv := e.Series.at(intended - r.Warmup)
	iv.Scheduled++
	iv.SumUs += uint64(totUs)
	if totUs > iv.MaxUs {
		iv.MaxUs = totUs
	}
	iv.sketch()[sketchIndex(totUs)]++
	iv.LagMaxUs = max(iv.LagMaxUs, lagUs)
	if lag > LateSend {
		iv.LateSends++
	}
	e.Series.at(res.Timestamp.Sub(e.Series.Start)).Sent++
	if invalid != "" {
		e.Invalid++
		e.addError("invalid answer: " + invalid)
	}
	switch {
	case res.Code == 429:
		e.R429++
		iv.R429++
		if invalid != "" {
			e.Invalid429++
		} else if c.Gateway429 {
			e.Gateway429++
		}
	case invalid != "":
		iv.Other++
	case res.Code >= 200 && res.Code < 300:
		e.OK++
		iv.OK++
	default:
		iv.Other++
	}
	if res.Error != "" && (res.Code < 200 || res.Code >= 300) {
		e.addError(res.Error)
	}
	return true
}

// addError counts one error string, keeping at most maxErrors distinct ones.
func (e *Endpoint) addError(k string) {
	if _, ok := e.Errors[k]; !ok && len(e.Errors) >= maxErrors {
		k = "(other errors)"
	}
	e.Errors[k]++
}

func us(d time.Duration) int64 {
	v := int64(d / time.Microsecond)
	if v < hdrMin {
		v = hdrMin
	}
	if v > hdrMax {
		v = hdrMax
	}
	return v
}

// LatencyStats in milliseconds.
type LatencyStats struct {
	Min  float64 `json:"minMs"`
	Mean float64 `json:"meanMs"`
	P50  float64 `json:"p50Ms"`
	P90  float64 `json:"p90Ms"`
	P95  float64 `json:"p95Ms"`
	P99  float64 `json:"p99Ms"`
	P999 float64 `json:"p999Ms"`
	Max  float64 `json:"maxMs"`
}

func stats(h *hdr.Histogram) LatencyStats {
	if h.TotalCount() == 0 {
		return LatencyStats{}
	}
	ms := func(v int64) float64 { return math.Round(float64(v)) / 1000 }
	return LatencyStats{
		Min: ms(h.Min()), Mean: math.Round(h.Mean()) / 1000,
		P50: ms(h.ValueAtQuantile(50)), P90: ms(h.ValueAtQuantile(90)),
		P95: ms(h.ValueAtQuantile(95)), P99: ms(h.ValueAtQuantile(99)),
		P999: ms(h.ValueAtQuantile(99.9)), Max: ms(h.Max()),
	}
}

// Summary of one endpoint (or of all endpoints, Endpoint "all").
type Summary struct {
	Endpoint       string            `json:"endpoint"`
	Requests       uint64            `json:"requests"`
	OfferedRate    float64           `json:"offeredRate"`          // scheduled requests / measured window
	AchievedRate   float64           `json:"achievedRate"`         // requests / span of actual sends
	Throughput     float64           `json:"throughput"`           // 2xx / (first send .. last completion)
	SuccessRatio   float64           `json:"successRatio"`         // valid 2xx / requests
	Rate429        float64           `json:"rate429"`              // 429 / requests
	ErrorRatio     float64           `json:"errorRatio"`           // 1 - successRatio: non-2xx (incl. transport errors) and invalid answers
	Invalid        uint64            `json:"invalid"`              // answers that failed validation (status, Content-Type, sampled schema, a 429's envelope)
	Invalid429     uint64            `json:"invalid429,omitempty"` // 429 answers that broke RATE-02 (in invalid too)
	Gateway429     uint64            `json:"gateway429,omitempty"` // 429 answers taken as a gateway's (not in the error envelope's form)
	InvalidRatio   float64           `json:"invalidRatio"`         // invalid / requests
	StatusCodes    map[string]uint64 `json:"statusCodes"`          // "0" = transport error or timeout
	Errors         map[string]uint64 `json:"errors,omitempty"`
	Latency        LatencyStats      `json:"latency"`        // open model: from intended send time
	ServiceLatency LatencyStats      `json:"serviceLatency"` // from actual send (what vegeta reports)
	SendLag        LatencyStats      `json:"sendLag"`        // actual - intended send time
	BytesIn        uint64            `json:"bytesIn"`
	BytesOut       uint64            `json:"bytesOut"`
	First          time.Time         `json:"firstSend"`
	LastSent       time.Time         `json:"lastSend"`
	LastDone       time.Time         `json:"lastDone"`
	Window         float64           `json:"windowSeconds"` // measured window used for the offered rate
	// GeneratorBound: the send lag is at least LagShareLimit of the
	// open-model latency at p50 or p99, so that latency describes the
	// generator more than the server (LagShare says which).
	GeneratorBound bool    `json:"generatorBound"`
	Series         []Point `json:"series"`
	State          *State  `json:"state,omitempty"` // mergeable raw state
}

// LateSend is the send lag above which a send counts as late in the time
// series (Interval.LateSends): the generator's goal for the lag's p99, so
// that a run's late sends can be set beside what else happened on the
// machine in the same seconds.
const LateSend = 500 * time.Microsecond

// LagShareLimit: when the send lag is at least this share of the
// open-model latency (at p50 or p99), the figure describes the generator
// more than the server.
const LagShareLimit = 0.25

// LagShare returns the first of p50 and p99 at which the send lag is at
// least LagShareLimit of the open-model latency, and that share ("" and 0
// when neither is).
func (s Summary) LagShare() (quantile string, share float64) {
	if s.Requests == 0 {
		return "", 0
	}
	for _, q := range []struct {
		name     string
		lag, lat float64
	}{{"p50", s.SendLag.P50, s.Latency.P50}, {"p99", s.SendLag.P99, s.Latency.P99}} {
		if q.lat > 0 && q.lag/q.lat >= LagShareLimit {
			return q.name, q.lag / q.lat
		}
	}
	return "", 0
}

// R429Count is the number of 429 answers.
func (s Summary) R429Count() uint64 { return s.StatusCodes["429"] }

// State is the mergeable part of a summary.
type State struct {
	Latency string            `json:"hdrLatency"` // base64 HDR V2 compressed
	Service string            `json:"hdrService"`
	Lag     string            `json:"hdrLag"`
	OK      uint64            `json:"ok"`
	R429    uint64            `json:"r429"`
	Invalid uint64            `json:"invalid,omitempty"`
	Inv429  uint64            `json:"invalid429,omitempty"`
	Gw429   uint64            `json:"gateway429,omitempty"`
	Codes   map[string]uint64 `json:"codes"`
	Series  *Series           `json:"series"`
}

// Summaries computes the per-endpoint summaries and an "all" aggregate (first)
// for a measured window of `window` (the schedule's measured duration, or
// the elapsed part of it when the run was interrupted).
func (r *Recorder) Summaries(window time.Duration) []Summary {
	eps := r.Endpoints()
	out := make([]Summary, 0, len(eps)+1)
	all := newEndpoint("all", r.Start.Add(r.Warmup))
	for _, e := range eps {
		all.mergeFrom(e)
	}
	if len(eps) > 0 {
		out = append(out, all.Summary(window))
	}
	for _, e := range eps {
		out = append(out, e.Summary(window))
	}
	return out
}

func (e *Endpoint) mergeFrom(o *Endpoint) {
	e.Latency.Merge(o.Latency)
	e.Service.Merge(o.Service)
	e.Lag.Merge(o.Lag)
	e.Requests += o.Requests
	e.OK += o.OK
	e.R429 += o.R429
	e.Invalid += o.Invalid
	e.Invalid429 += o.Invalid429
	e.Gateway429 += o.Gateway429
	for k, v := range o.Codes {
		e.Codes[k] += v
	}
	for k, v := range o.Errors {
		if _, ok := e.Errors[k]; !ok && len(e.Errors) >= maxErrors {
			k = "(other errors)"
		}
		e.Errors[k] += v
	}
	e.BytesIn += o.BytesIn
	e.BytesOut += o.BytesOut
	if !o.First.IsZero() && (e.First.IsZero() || o.First.Before(e.First)) {
		e.First = o.First
	}
	if o.LastSent.After(e.LastSent) {
		e.LastSent = o.LastSent
	}
	if o.LastDone.After(e.LastDone) {
		e.LastDone = o.LastDone
	}
	if e.Series.Start.IsZero() || (len(e.Series.Intervals) == 0 && !o.Series.Start.IsZero()) {
		e.Series.Start = o.Series.Start
	}
	e.Series.Merge(o.Series)
}

// Summary renders the endpoint.
func (e *Endpoint) Summary(window time.Duration) Summary {
	s := Summary{
		Endpoint: e.Name, Requests: e.Requests, StatusCodes: map[string]uint64{},
		Latency: stats(e.Latency), ServiceLatency: stats(e.Service), SendLag: stats(e.Lag),
		BytesIn: e.BytesIn, BytesOut: e.BytesOut, First: e.First, LastSent: e.LastSent, LastDone: e.LastDone,
		Window: window.Seconds(), Invalid: e.Invalid, Invalid429: e.Invalid429, Gateway429: e.Gateway429,
	}
	for c, n := range e.Codes {
		s.StatusCodes[strconv.Itoa(int(c))] = n
	}
	if len(e.Errors) > 0 {
		s.Errors = e.Errors
	}
	if e.Requests > 0 {
		n := float64(e.Requests)
		s.SuccessRatio = float64(e.OK) / n
		s.Rate429 = float64(e.R429) / n
		s.ErrorRatio = 1 - s.SuccessRatio
		s.InvalidRatio = float64(e.Invalid) / n
		if window > 0 {
			s.OfferedRate = n / window.Seconds()
		}
		if span := e.LastSent.Sub(e.First).Seconds(); span > 0 && e.Requests > 1 {
			// n sends span n-1 inter-send gaps.
			s.AchievedRate = (n - 1) / span
		}
		if span := e.LastDone.Sub(e.First).Seconds(); span > 0 {
			s.Throughput = float64(e.OK) / span
		}
	}
	q, _ := s.LagShare()
	s.GeneratorBound = q != ""
	s.Series = e.Series.Points()
	e.Series.freeze()
	s.State = &State{
		Latency: encode(e.Latency), Service: encode(e.Service), Lag: encode(e.Lag),
		OK: e.OK, R429: e.R429, Invalid: e.Invalid, Inv429: e.Invalid429, Gw429: e.Gateway429, Codes: s.StatusCodes, Series: e.Series,
	}
	return s
}

func encode(h *hdr.Histogram) string {
	b, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}

func decode(s string) (*hdr.Histogram, error) {
	if s == "" {
		return newHist(), nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return hdr.Decode(b)
}

// FromSummary rebuilds an accumulator from a summary's mergeable state.
func FromSummary(s Summary) (*Endpoint, error) {
	if s.State == nil {
		return nil, fmt.Errorf("summary of %s has no mergeable state", s.Endpoint)
	}
	e := newEndpoint(s.Endpoint, time.Time{})
	var err error
	if e.Latency, err = decode(s.State.Latency); err != nil {
		return nil, fmt.Errorf("%s latency histogram: %w", s.Endpoint, err)
	}
	if e.Service, err = decode(s.State.Service); err != nil {
		return nil, fmt.Errorf("%s service histogram: %w", s.Endpoint, err)
	}
	if e.Lag, err = decode(s.State.Lag); err != nil {
		return nil, fmt.Errorf("%s lag histogram: %w", s.Endpoint, err)
	}
	e.Requests, e.OK, e.R429, e.Invalid = s.Requests, s.State.OK, s.State.R429, s.State.Invalid
	e.Invalid429, e.Gateway429 = s.State.Inv429, s.State.Gw429
	for k, v := range s.State.Codes {
		c, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("%s: bad status code %q", s.Endpoint, k)
		}
		e.Codes[uint16(c)] += v
	}
	for k, v := range s.Errors {
		e.Errors[k] = v
	}
	e.BytesIn, e.BytesOut = s.BytesIn, s.BytesOut
	e.First, e.LastSent, e.LastDone = s.First, s.LastSent, s.LastDone
	if s.State.Series != nil {
		e.Series = s.State.Series
	}
	return e, nil
}

// Merge combines per-endpoint summaries from several runs (shards) into
// merged accumulators, by endpoint name; "all" entries are skipped (they are
// recomputed).
func Merge(runs [][]Summary) (*Recorder, error) {
	r := &Recorder{endpoints: map[string]*Endpoint{}}
	for _, run := range runs {
		for _, s := range run {
			if s.Endpoint == "all" {
				continue
			}
			e, err := FromSummary(s)
			if err != nil {
				return nil, err
			}
			dst := r.endpoints[s.Endpoint]
			if dst == nil {
				dst = newEndpoint(s.Endpoint, e.Series.Start)
				r.endpoints[s.Endpoint] = dst
				r.order = append(r.order, s.Endpoint)
			}
			dst.mergeFrom(e)
		}
	}
	sort.Strings(r.order)
	return r, nil
}
