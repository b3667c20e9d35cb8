package promrw

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/redact"
)

// The series pushed for each endpoint of a run, cumulative since the run's
// measured part began (warm-up excluded, as in the reports), labelled with
// the run's run_id, scenario and shard and the endpoint:
//
//	mph_load_requests_total{status_class}       2xx 3xx 4xx (429 apart) 429 5xx error (transport)
//	mph_load_invalid_total                      answers failing validation (docs/load.md)
//	mph_load_latency_seconds_{bucket,sum,count} open model: intended send to end of answer
//	mph_load_service_latency_seconds_…          actual send to end of answer
//	mph_load_send_lag_seconds_…                 actual send − intended send
//
// The histograms are classic ones (le buckets), computed from the run's HDR
// histograms at each push.
const (
	MetricRequests = "mph_load_requests_total"
	MetricInvalid  = "mph_load_invalid_total"
	MetricLatency  = "mph_load_latency_seconds"
	MetricService  = "mph_load_service_latency_seconds"
	MetricLag      = "mph_load_send_lag_seconds"
)

// StatusClasses are the values of status_class, every one pushed from the
// start (at 0) so that rate() sees each counter's first increase.
var StatusClasses = []string{"2xx", "3xx", "4xx", "429", "5xx", "error"}

// Buckets are the histograms' upper bounds in seconds (+Inf added).
var Buckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// RunLabels identify a run's series: shards of one run share run_id and
// scenario and differ by shard, so that a dashboard adds them up.
type RunLabels struct {
	RunID, Scenario string
	Shard           string // "i/n"
}

// Options configure a Pusher.
type Options struct {
	URL      string // the receiver, e.g. http://prometheus:9090/api/v1/write (userinfo: basic auth)
	Interval time.Duration
	Labels   RunLabels
	Client   *http.Client     // built by httpclient
	Now      func() time.Time // the clock of the samples (default time.Now)
}

// DefaultInterval is the time between two pushes.
const DefaultInterval = 5 * time.Second

// Stats count a pusher's pushes.
type Stats struct {
	Pushes, Failed int
	Series         int    // series in the last push
	LastError      string // redacted
}

// Pusher pushes snapshots of a run's figures. Observe and Finish run in
// the run's consumer goroutine (they copy the figures); the pushes go out
// from a goroutine of the pusher's own, at most one snapshot waiting (a
// newer one replaces it: the counters are cumulative).
type Pusher struct {
	o       Options
	last    time.Time
	pending chan []Series
	done    chan struct{}
	mu      sync.Mutex
	stats   Stats
}

// Start starts a pusher.
func Start(o Options) *Pusher {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	p := &Pusher{o: o, pending: make(chan []Series, 1), done: make(chan struct{})}
	go p.send()
	return p
}

// Observe takes a snapshot when the interval has passed since the last.
func (p *Pusher) Observe(now time.Time, eps []*metrics.Endpoint) {
	if !p.last.IsZero() && now.Sub(p.last) < p.o.Interval {
		return
	}
	p.last = now
	p.offer(Snapshot(p.o.Labels, eps, p.o.Now()))
}

// Finish takes the run's last snapshot.
func (p *Pusher) Finish(eps []*metrics.Endpoint) {
	p.offer(Snapshot(p.o.Labels, eps, p.o.Now()))
}

func (p *Pusher) offer(ss []Series) {
	for {
		select {
		case p.pending <- ss:
			return
		default:
			select { // replace the waiting snapshot
			case <-p.pending:
			default:
			}
		}
	}
}

// Close waits until the last snapshot is pushed or ctx ends, and returns
// the counts.
func (p *Pusher) Close(ctx context.Context) Stats {
	close(p.pending)
	select {
	case <-p.done:
	case <-ctx.Done():
		p.mu.Lock()
		p.stats.LastError = "the last push did not finish in time"
		p.mu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

func (p *Pusher) send() {
	defer close(p.done)
	var body, raw []byte
	for ss := range p.pending {
		raw = appendWriteRequest(raw[:0], ss)
		body = snappyEncode(body[:0], raw)
		err := p.post(body)
		p.mu.Lock()
		p.stats.Pushes++
		p.stats.Series = len(ss)
		if err != nil {
			p.stats.Failed++
			p.stats.LastError = redact.Safe(err.Error())
		}
		p.mu.Unlock()
	}
}

// post sends one WriteRequest as the protocol says: snappy-compressed
// protobuf, with its version header.
func (p *Pusher) post(body []byte) error {
	req, err := http.NewRequest(http.MethodPost, p.o.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "mph-load")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	resp, err := p.o.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := httpclient.ReadBody(resp.Body, 512)
		return fmt.Errorf("remote write answered %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	httpclient.Drain(resp.Body, 64<<10)
	return nil
}

// Snapshot is the series of eps at time at.
func Snapshot(l RunLabels, eps []*metrics.Endpoint, at time.Time) []Series {
	ts := at.UnixMilli()
	var out []Series
	for _, e := range eps {
		base := []Label{{"run_id", l.RunID}, {"scenario", l.Scenario}, {"shard", l.Shard}, {"endpoint", e.Name}}
		one := func(name string, v float64, extra ...Label) {
			ls := append(append([]Label{{"__name__", name}}, base...), extra...)
			out = append(out, Series{Labels: ls, Samples: []Sample{{Value: v, Timestamp: ts}}})
		}
		classes := map[string]uint64{}
		for code, n := range e.Codes {
			classes[statusClass(code)] += n
		}
		for _, c := range StatusClasses {
			one(MetricRequests, float64(classes[c]), Label{"status_class", c})
		}
		one(MetricInvalid, float64(e.Invalid))
		for _, h := range []struct {
			name string
			h    *hdr.Histogram
		}{{MetricLatency, e.Latency}, {MetricService, e.Service}, {MetricLag, e.Lag}} {
			counts, n, sum := classic(h.h)
			for i, b := range Buckets {
				one(h.name+"_bucket", float64(counts[i]), Label{"le", strconv.FormatFloat(b, 'g', -1, 64)})
			}
			one(h.name+"_bucket", float64(n), Label{"le", "+Inf"})
			one(h.name+"_sum", sum)
			one(h.name+"_count", float64(n))
		}
	}
	return out
}

// statusClass names a status code's class; 429 is its own, 0 (no answer)
// is "error".
func statusClass(code uint16) string {
	switch {
	case code == 0:
		return "error"
	case code == http.StatusTooManyRequests:
		return "429"
	case code >= 200 && code < 600:
		return strconv.Itoa(int(code/100)) + "xx"
	}
	return "error"
}

// classic folds an HDR histogram (µs) into cumulative counts at Buckets,
// its total and its sum in seconds (from the HDR mean: 3 significant
// digits). A value counts below a bound when its HDR bucket's upper edge is.
func classic(h *hdr.Histogram) ([]uint64, uint64, float64) {
	counts := make([]uint64, len(Buckets))
	for _, bar := range h.Distribution() {
		if bar.Count == 0 {
			continue
		}
		for i := len(Buckets) - 1; i >= 0 && float64(bar.To) <= Buckets[i]*1e6; i-- {
			counts[i] += uint64(bar.Count)
		}
	}
	n := uint64(h.TotalCount())
	return counts, n, h.Mean() * float64(n) / 1e6
}
