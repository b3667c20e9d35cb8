package promrw

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/metrics"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// receiver decodes every push as a remote-write receiver does and keeps
// the value of each series by its labels.
type receiver struct {
	mu     sync.Mutex
	pushes int
	last   map[string]float64
	bad    string
}

func (rc *receiver) handler(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if r.Header.Get("Content-Encoding") != "snappy" || r.Header.Get("Content-Type") != "application/x-protobuf" ||
			r.Header.Get("X-Prometheus-Remote-Write-Version") != "0.1.0" {
			rc.bad = "headers " + r.Header.Get("Content-Type")
		}
		raw, err := snappyDecode(b)
		if err != nil {
			rc.bad = err.Error()
			return
		}
		rc.pushes++
		rc.last = map[string]float64{}
		for _, ts := range pbFields(t, raw) {
			key, v := "", math.NaN()
			for _, f := range pbFields(t, ts.bytes) {
				switch f.num {
				case 1:
					l := pbFields(t, f.bytes)
					key += string(l[0].bytes) + "=" + string(l[1].bytes) + ","
				case 2:
					v = math.Float64frombits(pbFields(t, f.bytes)[0].varint)
				}
			}
			rc.last[key] = v
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// A pusher pushes cumulative snapshots at its interval and always the last
// one at the end: every status class, the histograms' buckets, sums and
// counts.
func TestPusherPushesSnapshots(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc.handler(t))
	defer srv.Close()
	start := time.Unix(2000, 0)
	rec := metrics.NewRecorder(start, 0)
	p := Start(Options{URL: srv.URL, Interval: time.Second, Labels: RunLabels{RunID: "r1", Scenario: "list", Shard: "0/1"},
		Client: httpclient.New(httpclient.Options{})})
	for i, code := range []uint16{200, 200, 429, 503, 0} {
		rec.Add("list", &vegeta.Result{Code: code, Timestamp: start, Latency: time.Duration(i+1) * time.Millisecond}, 0)
		p.Observe(start.Add(time.Duration(i)*300*time.Millisecond), rec.Endpoints()) // 0, 0.3 … 1.2 s: two snapshots due
	}
	p.Finish(rec.Endpoints())
	st := p.Close(context.Background())
	rc.mu.Lock()
	defer rc.mu.Unlock()
	// Two snapshots are due and one more at the end; one waiting snapshot
	// is replaced by a newer one when the sender has not taken it yet.
	if rc.bad != "" || st.Failed != 0 || st.Pushes < 1 || st.Pushes > 3 || rc.pushes != st.Pushes {
		t.Fatalf("pushes %+v, receiver saw %d (%s)", st, rc.pushes, rc.bad)
	}
	base := ",endpoint=list,run_id=r1,scenario=list,shard=0/1,"
	for key, want := range map[string]float64{
		"__name__=mph_load_requests_total" + base + "status_class=2xx,":                                       2,
		"__name__=mph_load_requests_total" + base + "status_class=429,":                                       1,
		"__name__=mph_load_requests_total" + base + "status_class=5xx,":                                       1,
		"__name__=mph_load_requests_total" + base + "status_class=error,":                                     1,
		"__name__=mph_load_requests_total" + base + "status_class=3xx,":                                       0,
		"__name__=mph_load_latency_seconds_bucket,endpoint=list,le=0.0025,run_id=r1,scenario=list,shard=0/1,": 2, // labels sorted
		"__name__=mph_load_latency_seconds_bucket,endpoint=list,le=+Inf,run_id=r1,scenario=list,shard=0/1,":   5,
		"__name__=mph_load_latency_seconds_count" + base:                                                      5,
		"__name__=mph_load_send_lag_seconds_count" + base:                                                     5,
	} {
		if got, ok := rc.last[key]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", key, got, ok, want)
		}
	}
	if sum := rc.last["__name__=mph_load_latency_seconds_sum"+base]; math.Abs(sum-0.015) > 0.0001 {
		t.Errorf("latency sum %v, want 0.015 s", sum)
	}
}

// A receiver's refusal is counted and said, not hidden.
func TestPusherCountsFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "out of order sample", http.StatusBadRequest)
	}))
	defer srv.Close()
	p := Start(Options{URL: srv.URL, Client: httpclient.New(httpclient.Options{})})
	p.Finish(nil)
	if st := p.Close(context.Background()); st.Failed != 1 || st.LastError == "" {
		t.Fatalf("stats %+v", st)
	}
}
