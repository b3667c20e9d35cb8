package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/pacer"
)

func attackServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &conns
}

// collectAll gathers the results (their bodies copied) and gives every
// batch back, as the run's consumer does.
func collectAll(a *attacker, ch <-chan *resultBatch) []vegeta.Result {
	var out []vegeta.Result
	for b := range ch {
		for _, r := range b.res {
			r.Body = append([]byte(nil), r.Body...)
			out = append(out, r)
		}
		a.recycle(b)
	}
	return out
}

// Bodies share recycled slabs: each result's body is its own answer's
// while the consumer holds its batch, however the slabs are reused.
func TestAttackBodiesSurviveRecycling(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		body := fmt.Sprintf(`{"n":%d,"pad":%q}`, k, strings.Repeat("x", int(k%700)))
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	sched, _ := pacer.Max(300 * time.Millisecond)
	a := newAttacker(AttackOptions{MaxWorkers: 8}, vegeta.NewStaticTargeter(vegeta.Target{Method: "GET", URL: srv.URL}), "")
	seen := map[int]bool{}
	total := 0
	for b := range a.attack(sched, true) {
		for _, r := range b.res {
			var v struct {
				N   int    `json:"n"`
				Pad string `json:"pad"`
			}
			if err := json.Unmarshal(r.Body, &v); err != nil || seen[v.N] || len(v.Pad) != v.N%700 || int(r.BytesIn) != len(r.Body) {
				t.Fatalf("body %q (%d bytes in): %v, or seen twice", r.Body, r.BytesIn, err)
			}
			seen[v.N] = true
			total++
		}
		a.recycle(b)
	}
	if total < 100 {
		t.Fatalf("only %d results", total)
	}
}

// Open model: every scheduled hit is sent once, with the schedule's
// sequence number, never before its intended time.
func TestAttackOpenModelSendsEachHitAtItsTime(t *testing.T) {
	u, _ := attackServer(t)
	sched, err := pacer.Constant(200, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	a := newAttacker(AttackOptions{}, vegeta.NewStaticTargeter(vegeta.Target{Method: "GET", URL: u}), "t")
	res := collectAll(a, a.attack(pacer.Precise(sched), false))
	if uint64(len(res)) != sched.TotalHits() {
		t.Fatalf("%d results, want %d", len(res), sched.TotalHits())
	}
	seen := map[uint64]bool{}
	for _, r := range res {
		if seen[r.Seq] || r.Seq >= sched.TotalHits() {
			t.Fatalf("sequence %d repeated or out of range", r.Seq)
		}
		seen[r.Seq] = true
		if early := a.began.Add(sched.HitAt(r.Seq)).Sub(r.Timestamp); early > 100*time.Microsecond {
			t.Fatalf("hit %d sent %v before its intended time", r.Seq, early)
		}
		if r.Code != 200 || r.Attack != "t" || r.Latency <= 0 {
			t.Fatalf("result %+v", r)
		}
	}
}

// Closed model: at most MaxWorkers requests (and connections) at once,
// back to back until the schedule's duration; stop ends it early.
func TestAttackClosedModelBoundsWorkersAndStops(t *testing.T) {
	u, conns := attackServer(t)
	tr := vegeta.NewStaticTargeter(vegeta.Target{Method: "GET", URL: u})
	sched, err := pacer.Max(400 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	a := newAttacker(AttackOptions{MaxWorkers: 3}, tr, "")
	start := time.Now()
	res := collectAll(a, a.attack(sched, true))
	if d := time.Since(start); d < 400*time.Millisecond || d > 5*time.Second {
		t.Fatalf("closed run lasted %v, want about 400ms", d)
	}
	if len(res) < 10 || conns.Load() > 3 {
		t.Fatalf("%d results over %d connections, want many over at most 3", len(res), conns.Load())
	}
	seen := map[uint64]bool{}
	for _, r := range res {
		if seen[r.Seq] {
			t.Fatalf("sequence %d repeated", r.Seq)
		}
		seen[r.Seq] = true
	}
	long, _ := pacer.Max(time.Minute)
	b := newAttacker(AttackOptions{MaxWorkers: 2}, tr, "")
	ch := b.attack(long, true)
	time.AfterFunc(100*time.Millisecond, b.stop)
	start = time.Now()
	collectAll(b, ch)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("stop took %v", d)
	}
}
