// Package topology finds the rate limiters behind the paths a probe found
// limited (mph load probe-rate-limit --topology): which paths share one,
// what it is keyed by (token, merchant, client), each one's burst, refill
// and Retry-After, and the policy it declares. It runs the load engine and
// prepares its own scenarios; the figures go to package summary.
package topology

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/summary"
)

// Thresholds of the watch verdicts: a watched stream refused more often
// than topoShared draws from the saturated limiter; below topoFree it does not.
const (
	topoShared = 0.25
	topoFree   = 0.05
)

// Options configure Probe.
type Options struct {
	Attack   loadtest.AttackOptions
	PoolSize int           // cards created per secure scenario (default 2)
	MaxWait  time.Duration // cap of every refill wait (default 10s)
	Logf     func(string, ...any)
}

// topoPath is a limited path with its per-path probe figures.
type topoPath struct {
	name           string
	ceiling, burst float64
	scn            *loadtest.Scenario // primary credential, first token
}

type topoProber struct {
	o     Options
	ctx   context.Context
	paths map[string]*topoPath
	mu    sync.Mutex
	hdrs  map[string]map[string]string // path -> rate-limit headers seen
	seq   int                          // scenarios prepared
	rate2 summary.Judged429            // every 429 of the topology's runs, by RATE-02 (under mu)
}

// run is one attack of the topology, its 429s judged by RATE-02.
func (p *topoProber) run(spec loadtest.RunSpec) (*loadtest.Outcome, error) {
	out, err := loadtest.Run(p.ctx, spec)
	p.mu.Lock()
	out.Tally429(&p.rate2)
	p.mu.Unlock()
	return out, err
}

// Probe finds which of the probed paths share a limiter (saturate
// one, watch another), what the limiter is keyed by (a second token of the
// same merchant and, with a second credential, a second merchant call the
// saturated path), and each limiter's burst and refill rate (token counts
// after timed waits from an empty bucket). It prepares its own scenarios.
func Probe(ctx context.Context, t *loadtest.Target, probes []summary.PathProbe, o Options) (*summary.Topology, error) {
	if o.PoolSize <= 0 {
		o.PoolSize = 2
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 10 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	tp := &summary.Topology{}
	p := &topoProber{o: o, ctx: ctx, paths: map[string]*topoPath{}, hdrs: map[string]map[string]string{}}
	defer func() { tp.RATE02 = p.rate2 }()
	names := p.limitedPaths(tp, probes)
	if len(names) == 0 {
		return tp, nil
	}
	// Every scenario (and its token exchange) is prepared before any path
	// is saturated, so that setup never meets an empty bucket.
	variants := map[string][]topoVariant{}
	defer p.closeAll(variants)
	for _, n := range names {
		scn, err := p.prepare(t, n, t.Creds[0])
		if err != nil {
			return tp, err
		}
		p.paths[n].scn = scn
	}
	for _, n := range names {
		vs, notes, err := p.prepareVariants(t, n)
		variants[n] = vs
		tp.Notes = append(tp.Notes, notes...)
		if err != nil {
			return tp, err
		}
	}
	if err := p.refillWait(names...); err != nil {
		return tp, err
	}
	groups, err := p.pairs(tp, names)
	if err != nil {
		return tp, err
	}
	for _, g := range groups {
		lg, err := p.group(tp, g, variants)
		if err != nil {
			return tp, err
		}
		tp.Groups = append(tp.Groups, lg)
	}
	return tp, nil
}

// limitedPaths keeps the probed paths where a limit was found, with their
// ceiling and burst estimates, sorted by name.
func (p *topoProber) limitedPaths(tp *summary.Topology, probes []summary.PathProbe) []string {
	var names []string
	for _, pp := range probes {
		c := pp.Ceiling
		if c <= 0 {
			c = pp.OnsetRate
		}
		if c <= 0 {
			c = pp.CoarseOnset // rough: saturation escalates when it does not saturate
		}
		if !pp.LimitFound || c <= 0 {
			tp.Notes = append(tp.Notes, fmt.Sprintf("%s: no limit measured, left out of the topology", pp.Endpoint))
			continue
		}
		p.paths[pp.Endpoint] = &topoPath{name: pp.Endpoint, ceiling: c, burst: math.Max(1, pp.Burst)}
		names = append(names, pp.Endpoint)
	}
	sort.Strings(names)
	return names
}

// prepare builds a single-path scenario authenticated by one credential.
func (p *topoProber) prepare(t *loadtest.Target, path string, c loadtest.Credential) (*loadtest.Scenario, error) {
	tt := *t
	tt.Creds = []loadtest.Credential{c}
	// Cards created by each scenario need references of their own.
	p.seq++
	tt.RunID = fmt.Sprintf("%s-topo%d", t.RunID, p.seq)
	scn, err := loadtest.Prepare(p.ctx, &tt, loadtest.ScenarioOptions{Name: loadtest.ScenarioFor(path), PoolSize: p.o.PoolSize, Teardown: true})
	if err != nil {
		return nil, fmt.Errorf("topology: %s: %w", path, err)
	}
	return scn, nil
}

type topoVariant struct {
	identity string
	scn      *loadtest.Scenario
}

// prepareVariants prepares the other identities calling path: a second
// token of the same merchant (not for the token exchange itself) and the
// second merchant when one is configured.
func (p *topoProber) prepareVariants(t *loadtest.Target, path string) ([]topoVariant, []string, error) {
	var vs []topoVariant
	var notes []string
	if path != loadtest.EPToken {
		scn, err := p.prepare(t, path, t.Creds[0])
		if err != nil {
			return vs, notes, err
		}
		if prim := p.paths[path].scn; prim.Tokens != nil && scn.Tokens != nil && prim.Tokens.Current().Value == scn.Tokens.Current().Value {
			notes = append(notes, fmt.Sprintf("%s: a second token exchange returned the same token: a token key cannot be told from a merchant key", path))
			scn.Close(p.ctx)
		} else {
			vs = append(vs, topoVariant{"second token, same merchant", scn})
		}
	}
	if len(t.Creds) > 1 && t.Creds[1].MerchantID != t.Creds[0].MerchantID {
		scn, err := p.prepare(t, path, t.Creds[1])
		if err != nil {
			return vs, notes, err
		}
		vs = append(vs, topoVariant{"second merchant", scn})
	} else {
		notes = append(notes, fmt.Sprintf("%s: no second merchant configured: a merchant key cannot be told from a client key", path))
	}
	return vs, notes, nil
}

func (p *topoProber) closeAll(variants map[string][]topoVariant) {
	for _, tp := range p.paths {
		if tp.scn != nil {
			tp.scn.Close(context.Background())
		}
	}
	for _, vs := range variants {
		for _, v := range vs {
			v.scn.Close(context.Background())
		}
	}
}

// refillWait sleeps until the named paths' buckets are full again.
func (p *topoProber) refillWait(names ...string) error {
	var d time.Duration
	for _, n := range names {
		tp := p.paths[n]
		d = max(d, time.Duration((tp.burst/tp.ceiling+0.5)*float64(time.Second)))
	}
	return loadtest.Sleep(p.ctx, min(d, p.o.MaxWait))
}

// record keeps the rate-limit headers of any answer.
func (p *topoProber) record(path string) func(string, *vegeta.Result, bool) {
	return func(_ string, r *vegeta.Result, _ bool) {
		p.mu.Lock()
		defer p.mu.Unlock()
		m := p.hdrs[path]
		if m == nil {
			m = map[string]string{}
			p.hdrs[path] = m
		}
		for _, h := range loadtest.RateLimitHeaders {
			if v := r.Headers.Get(h); v != "" {
				m[h] = v
			}
		}
	}
}

// saturateAndWatch saturates path sat and, once its bucket is drained,
// runs watch at a gentle rate for two seconds; it returns the watch's
// request count and 429 share. When the saturating stream itself meets few
// 429s (the per-path estimate was low), it tries again at a higher rate;
// errNotSaturated reports that even 9× was not enough.
func (p *topoProber) saturateAndWatch(sat string, watch *loadtest.Scenario, watchPath string, watchCeiling float64) (uint64, float64, error) {
	for _, boost := range []float64{1, 3, 9} {
		n, share, satShare, err := p.saturateOnce(sat, boost, watch, watchPath, watchCeiling)
		if err != nil || satShare > topoShared {
			return n, share, err
		}
		p.o.Logf("topology: %s not saturated (%.0f%% 429); faster", sat, satShare*100)
	}
	return 0, 0, errNotSaturated
}

// errNotSaturated: the check could not be made; its verdict is "unclear".
var errNotSaturated = errors.New("not saturated at 9× the rate its probe suggested")

func (p *topoProber) saturateOnce(sat string, boost float64, watch *loadtest.Scenario, watchPath string, watchCeiling float64) (uint64, float64, float64, error) {
	s := p.paths[sat]
	rate := (2*s.ceiling + 10) * boost
	drain := time.Duration(((s.burst+10)/(rate-s.ceiling) + 0.3) * float64(time.Second))
	wRate := math.Min(20, math.Max(5, watchCeiling/4))
	const watchDur = 2 * time.Second
	satSch, err := pacer.Constant(rate, drain+watchDur+200*time.Millisecond)
	if err != nil {
		return 0, 0, 0, err
	}
	wSch, err := pacer.Constant(wRate, watchDur)
	if err != nil {
		return 0, 0, 0, err
	}
	start := time.Now().Add(100 * time.Millisecond)
	var wg sync.WaitGroup
	var satOut *loadtest.Outcome
	var satErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		satOut, satErr = p.run(loadtest.RunSpec{Name: sat + "-saturate", Scenario: s.scn, Schedule: satSch, Attack: p.o.Attack, StartAt: start, OnResult: p.record(sat)})
	}()
	out, err := p.run(loadtest.RunSpec{Name: watchPath + "-watch", Scenario: watch, Schedule: wSch, Attack: p.o.Attack, StartAt: start.Add(drain), OnResult: p.record(watchPath)})
	wg.Wait()
	if err == nil {
		err = satErr
	}
	if err != nil {
		return 0, 0, 0, err
	}
	ws, _ := out.Summary(watchPath)
	ss, _ := satOut.Summary(sat)
	return ws.Requests, ws.Rate429, ss.Rate429, p.refillWait(sat, watchPath)
}

// pairs saturates each path in turn while watching each other one, and
// groups the paths found to share a limiter.
func (p *topoProber) pairs(tp *summary.Topology, names []string) ([][]string, error) {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if parent[x] == "" || parent[x] == x {
			return x
		}
		return find(parent[x])
	}
	for i, a := range names {
		for _, b := range names[i+1:] {
			n, share, err := p.saturateAndWatch(a, p.paths[b].scn, b, p.paths[b].ceiling)
			if err != nil && !errors.Is(err, errNotSaturated) {
				return nil, err
			}
			pc := summary.PairCheck{Saturated: a, Watched: b, Requests: n, Share429: share, Verdict: "unclear"}
			switch {
			case err != nil:
				tp.Notes = append(tp.Notes, fmt.Sprintf("%s saturated, %s watched: %s %v", a, b, a, err))
			case share > topoShared:
				pc.Verdict = "shared"
				parent[find(b)] = find(a)
			case share < topoFree:
				pc.Verdict = "independent"
			}
			p.o.Logf("topology: %s saturated, %s watched: %.0f%% 429 (%s)", a, b, share*100, pc.Verdict)
			tp.Pairs = append(tp.Pairs, pc)
		}
	}
	byRoot := map[string][]string{}
	var roots []string
	for _, n := range names {
		r := find(n)
		if byRoot[r] == nil {
			roots = append(roots, r)
		}
		byRoot[r] = append(byRoot[r], n)
	}
	out := make([][]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, byRoot[r])
	}
	return out, nil
}

// group characterises one limiter through a representative path: its key,
// burst, refill, Retry-After and declared policy.
func (p *topoProber) group(tp *summary.Topology, paths []string, variants map[string][]topoVariant) (summary.LimiterGroup, error) {
	rep := paths[0]
	for _, n := range paths {
		if n == loadtest.EPList || (n == loadtest.EPSecure && rep == loadtest.EPToken) {
			rep = n // an authenticated path can tell a token key from a merchant key
		}
	}
	g := summary.LimiterGroup{Paths: paths}
	limited := map[string]bool{}
	for _, v := range variants[rep] {
		n, share, err := p.saturateAndWatch(rep, v.scn, rep, p.paths[rep].ceiling)
		if errors.Is(err, errNotSaturated) {
			tp.Notes = append(tp.Notes, fmt.Sprintf("key check of %s with a %s: %s %v", rep, v.identity, rep, err))
			continue
		}
		if err != nil {
			return g, err
		}
		kc := summary.KeyCheck{Path: rep, Identity: v.identity, Requests: n, Share429: share, Limited: share > topoShared}
		p.o.Logf("topology: %s saturated, %s calls it: %.0f%% 429", rep, v.identity, share*100)
		tp.Keys = append(tp.Keys, kc)
		limited[v.identity] = kc.Limited
	}
	g.Key, g.KeyEvidence = limiterKey(rep, limited)
	if err := p.burstRefill(&g, rep); err != nil {
		return g, err
	}
	p.mu.Lock()
	g.Headers = map[string]string{}
	for _, n := range paths {
		for k, v := range p.hdrs[n] {
			g.Headers[k] = v
		}
	}
	p.mu.Unlock()
	g.Policy = ParseRateLimitPolicy(g.Headers["Ratelimit-Policy"])
	return g, nil
}

// limiterKey decides the key from which other identities were refused too.
func limiterKey(path string, limited map[string]bool) (string, string) {
	tok, hasTok := limited["second token, same merchant"]
	mer, hasMer := limited["second merchant"]
	switch {
	case hasTok && !tok:
		return "token", "a second token of the same merchant was not refused"
	case hasMer && mer:
		return "client", "a second merchant was refused too (one bucket per client IP, or global)"
	case hasMer && path == loadtest.EPToken:
		return "merchant", "a second merchant's token exchange was not refused"
	case hasTok && hasMer:
		return "merchant", "a second token of the same merchant was refused, a second merchant was not"
	case hasTok:
		return "merchant or client", "a second token of the same merchant was refused; no second merchant to tell merchant from client"
	}
	return "unknown", "no other identity to call the path with"
}

// burstRefill measures the limiter through path: drain it, wait a little
// and count the 2xx of a fast burst (refill), then wait until it is full
// and count again (burst). The last 429 of the drain gives Retry-After.
func (p *topoProber) burstRefill(g *summary.LimiterGroup, path string) error {
	s := p.paths[path]
	drainRate := 2*s.ceiling + 10
	sch, err := pacer.Constant(drainRate, time.Duration(((s.burst+10)/(drainRate-s.ceiling)+0.5)*float64(time.Second)))
	if err != nil {
		return err
	}
	var last429, lastSent time.Time
	var ra string
	rec := p.record(path)
	if _, err := p.run(loadtest.RunSpec{Name: path + "-drain", Scenario: s.scn, Schedule: sch, Attack: p.o.Attack, OnResult: func(ep string, r *vegeta.Result, m bool) {
		rec(ep, r, m)
		if r.Timestamp.After(lastSent) {
			lastSent = r.Timestamp
		}
		if r.Code == http.StatusTooManyRequests && r.Timestamp.After(last429) {
			last429, ra = r.Timestamp, r.Headers.Get("Retry-After")
		}
	}}); err != nil {
		return err
	}
	// Refill: tokens gathered in a short wait, well below the burst.
	t1 := time.Duration(math.Min(3, math.Max(0.2, 0.5*s.burst/s.ceiling)) * float64(time.Second))
	if err := loadtest.Sleep(p.ctx, t1); err != nil {
		return err
	}
	ok1, _, end1, err := p.fastBurst(s, int(math.Ceil(s.ceiling*t1.Seconds()*2))+10)
	if err != nil {
		return err
	}
	if el := end1.Sub(lastSent).Seconds(); el > 0 {
		g.Refill = float64(ok1) / el
	}
	// Burst: the bucket is empty after the first fast burst; wait until it is full.
	refill := math.Max(g.Refill, 0.1)
	if err := loadtest.Sleep(p.ctx, min(p.o.MaxWait, time.Duration((1.5*s.burst/refill+0.5)*float64(time.Second)))); err != nil {
		return err
	}
	ok2, span2, _, err := p.fastBurst(s, int(math.Ceil(2*s.burst))+20)
	if err != nil {
		return err
	}
	g.Burst = math.Max(0, math.Round(float64(ok2)-g.Refill*span2))
	g.RetryAfter = ra
	if v, err := strconv.Atoi(strings.TrimSpace(ra)); err == nil {
		g.TokensAtRetryAfter = float64(v) * g.Refill
	}
	p.o.Logf("topology: %s: burst %.0f, refill %.1f/s, Retry-After %q", path, g.Burst, g.Refill, ra)
	return p.refillWait(path)
}

// fastBurst sends n requests as fast as the limiter's scale allows and
// returns the 2xx count, the span of the sends (s) and the last send.
func (p *topoProber) fastBurst(s *topoPath, n int) (int, float64, time.Time, error) {
	rate := math.Min(5000, math.Max(200, 8*s.ceiling))
	sch, err := pacer.Constant(rate, time.Duration(float64(n)/rate*float64(time.Second))+time.Millisecond)
	if err != nil {
		return 0, 0, time.Time{}, err
	}
	var ok int
	var first, last time.Time
	rec := p.record(s.name)
	_, err = p.run(loadtest.RunSpec{Name: s.name + "-burst", Scenario: s.scn, Schedule: sch, Attack: p.o.Attack, OnResult: func(ep string, r *vegeta.Result, m bool) {
		rec(ep, r, m)
		if first.IsZero() || r.Timestamp.Before(first) {
			first = r.Timestamp
		}
		if r.Timestamp.After(last) {
			last = r.Timestamp
		}
		if r.Code >= 200 && r.Code < 300 {
			ok++
		}
	}})
	return ok, last.Sub(first).Seconds(), last, err
}

// ParseRateLimitPolicy reads the first policy of a RateLimit-Policy header:
// `"default";q=100;w=60` (IETF draft) or `100;w=60` (earlier drafts).
func ParseRateLimitPolicy(v string) *summary.RateLimitPolicy {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	first, _, _ := strings.Cut(v, ",")
	pol := &summary.RateLimitPolicy{Raw: v}
	for i, part := range strings.Split(first, ";") {
		part = strings.TrimSpace(part)
		k, val, ok := strings.Cut(part, "=")
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		switch {
		case !ok && i == 0:
			if q, err := strconv.ParseFloat(part, 64); err == nil {
				pol.Quota = q
			}
		case ok && err == nil && k == "q":
			pol.Quota = f
		case ok && err == nil && k == "w":
			pol.WindowSeconds = f
		}
	}
	return pol
}
