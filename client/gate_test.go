package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock never sleeps: Sleep moves its time on. The servers below read
// it too, so a wait and the target's window agree without real time passing
// (the tests hold on a busy machine).
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

// fakeStart lies ahead of the wall clock, so that a context deadline in fake
// time does not expire in real time.
var fakeStart = time.Date(2040, 5, 1, 12, 0, 0, 0, time.UTC)

func newFakeClock() *fakeClock { return &fakeClock{t: fakeStart} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
	return nil
}

// windowServer allows quota requests per fixed window of the fake clock and
// answers the others 429 with the headers of one convention.
type windowServer struct {
	clk    *fakeClock
	quota  int
	window time.Duration
	style  string
	body   string // 429 body (default: the error envelope)

	mu       sync.Mutex
	start    time.Time
	used     int
	sent     atomic.Int32
	refused  atomic.Int32
	byMethod map[string]int
}

func (s *windowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.sent.Add(1)
	now := s.clk.Now()
	s.mu.Lock()
	if s.byMethod == nil {
		s.byMethod = map[string]int{}
	}
	s.byMethod[r.Method]++
	for !now.Before(s.start.Add(s.window)) {
		s.start, s.used = s.start.Add(s.window), 0
	}
	ok := s.used < s.quota
	if ok {
		s.used++
	}
	reset := s.start.Add(s.window).Sub(now)
	s.mu.Unlock()
	if ok {
		_, _ = w.Write([]byte(`{"status":"success","data":{}}`))
		return
	}
	s.refused.Add(1)
	s.headers(w.Header(), now, reset)
	w.WriteHeader(http.StatusTooManyRequests)
	body := s.body
	if body == "" {
		body = `{"status":"error","statusCode":429,"message":"rate limit exceeded","error":"Too Many Requests"}`
	}
	_, _ = w.Write([]byte(body))
}

func (s *windowServer) headers(h http.Header, now time.Time, reset time.Duration) {
	secs := strconv.Itoa(int((reset + time.Second - 1) / time.Second))
	q, win := strconv.Itoa(s.quota), strconv.Itoa(int(s.window/time.Second))
	switch s.style {
	case "retry-after-seconds":
		h.Set("Retry-After", secs)
	case "retry-after-date":
		h.Set("Retry-After", now.Add(reset).Add(time.Second-1).Truncate(time.Second).Format(http.TimeFormat))
	case "x-ratelimit":
		h.Set("X-RateLimit-Limit", q)
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", secs)
	case "x-ratelimit-epoch":
		h.Set("X-RateLimit-Limit", q)
		h.Set("X-RateLimit-Remaining", "0")
		h.Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(reset).Add(time.Second-1).Unix(), 10))
	case "ietf-separate":
		h.Set("RateLimit-Limit", q)
		h.Set("RateLimit-Remaining", "0")
		h.Set("RateLimit-Reset", secs)
	case "ietf-combined":
		h.Set("RateLimit", "limit="+q+", remaining=0, reset="+secs)
	case "ietf-structured":
		h.Set("RateLimit", `"w";r=0;t=`+secs)
		h.Set("RateLimit-Policy", `"w";q=`+q+`;w=`+win)
	case "bare":
	}
}

func gateClient(t *testing.T, srv http.Handler, g *Gate) (*Client, *httptest.Server) {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return New(Options{BaseURL: ts.URL + "/v1/merchant", Gate: g, MaxRetries: 20}), ts
}

// Against a target allowing 10 requests per 10-second window, 45 calls all
// get an answer in every header convention. A convention stating the
// rate paces the run after one 429; the others wait out each window.
func TestGateCompletesUnderEachStyle(t *testing.T) {
	for _, tc := range []struct {
		style    string
		max429   int // 429s the 45 calls may meet
		paced    bool
		holdWhat string
	}{
		{"retry-after-seconds", 4, true, "Retry-After"},
		{"retry-after-date", 4, true, "Retry-After"},
		{"x-ratelimit", 1, true, "X-RateLimit-Reset"},
		{"x-ratelimit-epoch", 1, true, "X-RateLimit-Reset"},
		{"ietf-separate", 1, true, "RateLimit-Reset"},
		{"ietf-combined", 1, true, "RateLimit"},
		{"ietf-structured", 1, true, "RateLimit"},
		{"bare", 45, false, "exponential backoff"},
	} {
		t.Run(tc.style, func(t *testing.T) {
			clk := newFakeClock()
			srv := &windowServer{clk: clk, quota: 10, window: 10 * time.Second, style: tc.style, start: clk.Now()}
			g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
			c, _ := gateClient(t, srv, g)
			for i := 0; i < 45; i++ {
				resp, err := c.Get(context.Background(), "/cards", nil)
				if err != nil || resp.Status != http.StatusOK {
					t.Fatalf("call %d: %v %v", i, resp, err)
				}
			}
			elapsed := clk.Now().Sub(fakeStart)
			// 45 calls at 10 per 10 s need at least 4 windows after the first.
			if elapsed < 40*time.Second || elapsed > 3*time.Minute {
				t.Errorf("45 calls took %s of the target's time, want 40 s to 3 min", elapsed)
			}
			st := g.Stats()
			if n := int(srv.refused.Load()); n < 1 || n > tc.max429 || st.TooManyRequests != n {
				t.Errorf("%d answers 429 (gate counted %d), want 1 to %d", n, st.TooManyRequests, tc.max429)
			}
			if st.BackoffWait <= 0 || (tc.paced && st.PacedWait <= 0) {
				t.Errorf("waits not counted: %+v", st)
			}
			if l := strings.Join(g.Learned(), "\n"); !strings.Contains(l, tc.holdWhat) || !strings.Contains(l, "reads:") {
				t.Errorf("learned %q does not name %q", l, tc.holdWhat)
			}
		})
	}
}

// A wait that would end after the run's deadline is refused at once (no
// sleep), as no verdict; after the deadline only a caller's own deadline
// (the teardown's) lets a call wait.
func TestGateRefusesWaitsBeyondTheDeadline(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 1, window: time.Minute, style: "retry-after-seconds", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(30 * time.Second)})
	c, _ := gateClient(t, srv, g)
	if _, err := c.Get(context.Background(), "/cards", nil); err != nil {
		t.Fatal(err)
	}
	before := clk.Now()
	resp, err := c.Get(context.Background(), "/cards", nil)
	var rl *RateLimitedError
	if !errors.As(err, &rl) || resp == nil || resp.Status != http.StatusTooManyRequests || rl.Status != http.StatusTooManyRequests {
		t.Fatalf("want the 429 and a RateLimitedError, got %v, %v", resp, err)
	}
	for _, want := range []string{"would wait 1m0s", "Retry-After: 60", "run deadline (--deadline)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if clk.Now() != before {
		t.Errorf("the refused wait slept %s", clk.Now().Sub(before))
	}
	// A later call is refused before it is sent.
	sent := srv.sent.Load()
	if _, err := c.Get(context.Background(), "/cards", nil); !errors.As(err, &rl) || rl.Status != 0 || srv.sent.Load() != sent {
		t.Fatalf("want a refusal before sending, got %v (%d sent)", err, srv.sent.Load()-sent)
	}
	// Past the deadline: a call without a deadline of its own is refused,
	// one with a deadline waits within it.
	clk.Sleep(context.Background(), 40*time.Second)
	if _, err := c.Get(context.Background(), "/cards", nil); !errors.As(err, &rl) || !strings.Contains(err.Error(), "has passed") {
		t.Fatalf("want a refusal after the deadline, got %v", err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(5*time.Minute))
	defer cancel()
	if resp, err := c.Get(ctx, "/cards", nil); err != nil || resp.Status != http.StatusOK {
		t.Fatalf("a call with its own deadline should wait out the window: %v %v", resp, err)
	}
	if g.Stats().Refused != 3 {
		t.Errorf("refused waits %d, want 3", g.Stats().Refused)
	}
}

// --retry-after-max bounds each wait; without any bound a wait is at most
// DefaultMaxWait.
func TestGateMaxWait(t *testing.T) {
	for _, tc := range []struct {
		max  time.Duration
		ra   string
		want string
	}{
		{10 * time.Second, "60", "--retry-after-max"},
		{0, "3600", "the longest wait of 30s"},
	} {
		clk := newFakeClock()
		g := NewGate(GateOptions{Clock: clk, MaxWait: tc.max})
		c, _ := gateClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", tc.ra)
			w.WriteHeader(http.StatusTooManyRequests)
		}), g)
		_, err := c.Get(context.Background(), "/cards", nil)
		var rl *RateLimitedError
		if !errors.As(err, &rl) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("max %s, Retry-After %s: got %v, want it to name %q", tc.max, tc.ra, err, tc.want)
		}
	}
}

// 429s in two groups inside one window merge the groups into one limit:
// the reads then wait for the writes' window too.
func TestGateMergesGroupsOn429sAcrossGroups(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 4, window: 20 * time.Second, style: "retry-after-seconds", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, srv, g)
	ctx := context.Background()
	for i := 0; i < 4; i++ {
		if _, err := c.Put(ctx, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 1}); err != nil {
			t.Fatal(err)
		}
	}
	// The fifth write meets the 429 and waits; so does a read in its window.
	if _, err := c.Put(ctx, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 1}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if _, err := c.Get(ctx, "/cards", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Get(ctx, "/cards", nil); err != nil {
		t.Fatal(err)
	}
	l := strings.Join(g.Learned(), "\n")
	if !strings.Contains(l, "merged: 429s in writes and reads") || !strings.Contains(l, "every group") {
		t.Fatalf("groups not merged: %s", l)
	}
	// Merged: one 429 holds reads and writes alike, so each window of the
	// target's shared limit meets at most one 429 (kept apart, each group
	// would meet its own).
	refused, from := srv.refused.Load(), clk.Now()
	for i := 0; i < 12; i++ {
		if _, err := c.Put(ctx, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Get(ctx, "/cards", nil); err != nil {
			t.Fatal(err)
		}
	}
	windows := int32(clk.Now().Sub(from)/srv.window) + 1
	if n := srv.refused.Load() - refused; n > windows {
		t.Errorf("after merging, 24 calls met %d 429s in %d windows of the shared limit", n, windows)
	}
}

// Raw clients (the rate-limit specs' bursts) pass the gate by: they are
// neither held nor teach it a limit.
func TestRawCallsPassTheGateBy(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 1, window: time.Minute, style: "retry-after-seconds", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, srv, g)
	provoked := Stats().Provoked
	for i := 0; i < 3; i++ {
		if _, err := c.Raw().Get(context.Background(), "/cards", nil); err != nil {
			t.Fatal(err)
		}
	}
	if g.Stats().TooManyRequests != 0 || clk.Now() != fakeStart || len(g.Learned()) != 0 {
		t.Fatalf("raw calls changed the gate: %+v %v", g.Stats(), g.Learned())
	}
	if Stats().Provoked-provoked != 2 {
		t.Errorf("provoked 429s counted %d, want 2", Stats().Provoked-provoked)
	}
}

// Without a header stating the rate, the gate spaces requests at the rate
// the target was seen to allow, and relaxes that estimate as requests keep
// going through.
func TestGateEstimatesAndRelaxesTheRate(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 20, window: 10 * time.Second, style: "retry-after-seconds", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, srv, g)
	for i := 0; i < 200; i++ {
		if resp, err := c.Get(context.Background(), "/cards", nil); err != nil || resp.Status != 200 {
			t.Fatalf("call %d: %v %v", i, resp, err)
		}
	}
	l := strings.Join(g.Learned(), "\n")
	if !strings.Contains(l, "estimated: 21 requests sent in 10s") {
		t.Errorf("no estimate learned: %s", l)
	}
	// 200 calls at 20 per 10 s: 9 windows after the first at best.
	if el := clk.Now().Sub(fakeStart); el < 90*time.Second || el > 4*time.Minute {
		t.Errorf("200 calls took %s of the target's time", el)
	}
	if n := srv.refused.Load(); n > 10 {
		t.Errorf("%d answers 429 for 200 calls: the estimate did not pace", n)
	}
}

// Many goroutines share one gate: each gets an answer, the target's window
// is never overrun by more than the first burst.
func TestGateSharedByConcurrentCalls(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 10, window: 5 * time.Second, style: "x-ratelimit", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, srv, g)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.Get(context.Background(), "/cards", nil)
			if err == nil && resp.Status != http.StatusOK {
				err = fmt.Errorf("status %d", resp.Status)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// 429s from two groups stating different quotas are two limits: the groups
// stay apart.
func TestGateKeepsGroupsStatingDifferentQuotasApart(t *testing.T) {
	clk := newFakeClock()
	quota := map[string]int{http.MethodGet: 6, http.MethodPut: 3}
	windows := map[string]*windowServer{}
	for m, q := range quota {
		windows[m] = &windowServer{clk: clk, quota: q, window: 10 * time.Second, style: "x-ratelimit", start: clk.Now()}
	}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { windows[r.Method].ServeHTTP(w, r) }), g)
	ctx := context.Background()
	// The fourth write meets a 429 and holds the writes; seven reads right
	// after it, inside the writes' window, meet the reads' own 429.
	for i := 0; i < 4; i++ {
		if _, err := c.Put(ctx, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 1}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 7; i++ {
		if _, err := c.Get(ctx, "/cards", nil); err != nil {
			t.Fatal(err)
		}
	}
	if windows[http.MethodGet].refused.Load() == 0 || windows[http.MethodPut].refused.Load() == 0 {
		t.Fatal("both groups should have met their limit")
	}
	l := strings.Join(g.Learned(), "\n")
	if strings.Contains(l, "merged") || !strings.Contains(l, "reads:") || !strings.Contains(l, "writes:") {
		t.Errorf("groups stating 3 and 6 per window were merged: %s", l)
	}
}

// Paced under a stated quota, a group sends one request per interval after
// a hold, and bursts of half the quota after staying idle (the target's own
// bucket refilled meanwhile).
func TestGatePacesWithBurstsAfterIdleTime(t *testing.T) {
	clk := newFakeClock()
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	h := http.Header{}
	h.Set("Retry-After", "1")
	h.Set("X-RateLimit-Limit", "20")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", "4") // 20 per 4 s: one per 200 ms, bursts of 10
	g.observe(GroupWrites, http.StatusTooManyRequests, h)
	ctx := context.Background()
	waits := func(n int) []time.Duration {
		var out []time.Duration
		for i := 0; i < n; i++ {
			before := clk.Now()
			if err := g.wait(ctx, GroupWrites, "POST", "/x"); err != nil {
				t.Fatal(err)
			}
			out = append(out, clk.Now().Sub(before))
		}
		return out
	}
	got := waits(3)
	if got[0] != time.Second || got[1] != 200*time.Millisecond || got[2] != 200*time.Millisecond {
		t.Errorf("after the hold: waits %v, want 1s then 200ms each", got)
	}
	_ = clk.Sleep(ctx, 10*time.Second) // idle: the bucket refills
	got = waits(11)
	for i, d := range got[:10] {
		if d != 0 {
			t.Errorf("burst request %d waited %s", i+1, d)
		}
	}
	if got[10] != 200*time.Millisecond {
		t.Errorf("the request after the burst waited %s, want 200ms", got[10])
	}
	if st := g.Stats(); st.BackoffWait != time.Second || st.PacedWait != 600*time.Millisecond {
		t.Errorf("waits counted %+v, want 1s held and 600ms paced", st)
	}
}

// 429s from two groups far apart in time but stating the same quota are one
// limit: the groups merge.
func TestGateMergesGroupsStatingTheSameQuota(t *testing.T) {
	clk := newFakeClock()
	srv := &windowServer{clk: clk, quota: 6, window: 10 * time.Second, style: "x-ratelimit", start: clk.Now()}
	g := NewGate(GateOptions{Clock: clk, Deadline: clk.Now().Add(time.Hour)})
	c, _ := gateClient(t, srv, g)
	ctx := context.Background()
	for i := 0; i < 7; i++ {
		if _, err := c.Get(ctx, "/cards", nil); err != nil {
			t.Fatal(err)
		}
	}
	_ = clk.Sleep(ctx, time.Minute)
	for i := 0; i < 7; i++ {
		if _, err := c.Put(ctx, "/cards/c1/spend-limits", map[string]any{"dailyLimit": 1}); err != nil {
			t.Fatal(err)
		}
	}
	if l := strings.Join(g.Learned(), "\n"); !strings.Contains(l, "merged: 429s in reads and writes stating the same quota (6)") {
		t.Errorf("not merged: %s", l)
	}
}
