package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/liveguard"
	"github.com/merchant-harness/mph/loadtest/scrub"
	"github.com/merchant-harness/mph/loadtest/tokens"
)

// ScenarioOptions configure Prepare.
type ScenarioOptions struct {
	Name      string
	Mix       map[string]int // weights of a composite's parts (default: its own)
	PoolSize  int            // cards created for secure (default 20)
	CardIDs   []string       // use these cards instead of creating some
	ListQuery string         // query of GET /cards (default "limit=20")
	Teardown  bool           // sweep created cards' balances back to the vault at Close
	Logf      func(format string, a ...any)
}

// SetupError is a setup that did not complete. Whatever it had funded was
// swept back to the vault before Prepare returned; Notes say what was created
// and swept, for the report. Interrupted is true when ctx was cancelled.
type SetupError struct {
	Err         error
	Notes       []string
	Interrupted bool
}

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// Scenario is a prepared scenario: its setup is done and its targeter is
// ready. One Scenario serves any number of runs (steps); Close tears down.
type Scenario struct {
	Name      string
	Endpoints []string
	Targeter  vegeta.Targeter
	Tokens    *tokens.Source
	Notes     []string // setup facts for the report (spend, pool size)
	urlMask   map[string]string
	cleanups  []func(context.Context)
	cardIDs   []string
	target    *Target      // network settings of the attack
	base      string       // the target's base URL, no trailing slash
	hc        *http.Client // setup and the probe's single requests
}

func (s *Scenario) attackOptions(o AttackOptions) AttackOptions {
	if s.target == nil {
		return o
	}
	return s.target.attackOptions(o)
}

// envelope429 is the target profile's rateLimits.envelope ("" for its default).
func (s *Scenario) envelope429() string {
	if s.target == nil {
		return ""
	}
	return s.target.Envelope429
}

// RetryAfterMax is the target's longest Retry-After a probe waits out (0:
// httpclient's default).
func (s *Scenario) RetryAfterMax() time.Duration {
	if s.target == nil {
		return 0
	}
	return s.target.RetryAfterMax
}

// client is the scenario's client outside the attack.
func (s *Scenario) client() *http.Client {
	if s.hc == nil {
		s.hc = (&Target{}).httpClient()
	}
	return s.hc
}

// sendMaxBody bounds what Send reads of an answer.
const sendMaxBody = 64 << 10

// Send sends one request of the scenario outside the attack, with the
// scenario's own client, and returns the answer's status (0 when none came)
// and headers; the body of a 429 is read (to judge it by RATE-02), any
// other drained.
func (s *Scenario) Send(ctx context.Context) (int, http.Header, []byte) {
	var tgt vegeta.Target
	if err := s.Targeter(&tgt); err != nil {
		return 0, nil, nil
	}
	req, err := tgt.Request()
	if err != nil {
		return 0, nil, nil
	}
	resp, err := s.client().Do(req.WithContext(ctx))
	if err != nil {
		return 0, nil, nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		httpclient.Drain(resp.Body, sendMaxBody)
		return resp.StatusCode, resp.Header, nil
	}
	b, _ := httpclient.ReadBody(resp.Body, sendMaxBody)
	return resp.StatusCode, resp.Header, b
}

// MaskURL returns the scrubbed form of a URL of this scenario.
func (s *Scenario) MaskURL(u string) string {
	if m, ok := s.urlMask[u]; ok {
		return m
	}
	return scrub.URL(u)
}

// CardIDs of the secure pool.
func (s *Scenario) CardIDs() []string { return s.cardIDs }

// Close stops the token refresher and tears down what setup created.
func (s *Scenario) Close(ctx context.Context) {
	for _, c := range s.cleanups {
		c(ctx)
	}
	if s.Tokens != nil {
		s.Tokens.Close()
	}
}

// Prepare runs the named scenario's setup on the target.
func Prepare(ctx context.Context, t *Target, o ScenarioOptions) (*Scenario, error) {
	o.defaults()
	if len(t.Creds) == 0 {
		return nil, fmt.Errorf("load: no credentials")
	}
	def, ok := Lookup(o.Name)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (want %s)", o.Name, strings.Join(ScenarioNames(), ", "))
	}
	// The setup client refuses any write carrying a LIVE credential, the
	// last line behind consentToWrite.
	hc, _ := liveguard.Wrap(t.httpClient(), t.AllowLive || t.Embedded)
	s := &Scenario{Name: o.Name, urlMask: map[string]string{}, target: t, hc: hc, base: strings.TrimRight(t.BaseURL, "/")}
	gen, err := s.prepare(ctx, def, o)
	if err != nil {
		s.Close(ctx)
		return nil, err
	}
	if def.Composite() { // weightedTargeter checks for nil itself
		s.Targeter = gen
		return s, nil
	}
	s.Targeter = func(tg *vegeta.Target) error {
		if tg == nil {
			return vegeta.ErrNilTarget
		}
		return gen(tg)
	}
	return s, nil
}

// prepare runs a simple scenario's Prepare, or each part of a composite with
// a weight, in the composite's order, and interleaves them.
func (s *Scenario) prepare(ctx context.Context, def *ScenarioDef, o ScenarioOptions) (Generator, error) {
	if !def.Composite() {
		for _, ep := range def.Endpoints {
			s.Endpoints = append(s.Endpoints, ep.Name)
		}
		return def.Prepare(ctx, s, o)
	}
	parts, err := def.parts()
	if err != nil {
		return nil, err
	}
	weights := o.Mix
	if len(weights) == 0 {
		weights = def.Mix
	}
	gens := map[string]Generator{}
	for _, p := range parts {
		if weights[p.Name] <= 0 {
			continue
		}
		if gens[p.Name], err = s.prepare(ctx, p, o); err != nil {
			return nil, err
		}
	}
	if len(gens) == 0 {
		return nil, fmt.Errorf("scenario %s: no part has a weight (want some of %s)", def.Name, strings.Join(def.Parts, ", "))
	}
	return weightedTargeter(weights, gens), nil
}

func (o *ScenarioOptions) defaults() {
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.PoolSize <= 0 {
		o.PoolSize = 20
	}
	if o.ListQuery == "" {
		o.ListQuery = "limit=20"
	}
}

// tokens is the scenario's shared token source, started (outside any timed
// path) by the first part that needs it.
func (s *Scenario) tokens(ctx context.Context) (*tokens.Source, error) {
	if s.Tokens != nil {
		return s.Tokens, nil
	}
	t, c := s.target, s.target.Creds[0]
	s.Tokens = tokens.New(tokens.HTTPFetcher(s.hc, s.base, c.MerchantID, c.SecretKey), tokens.Options{RetryAfterMax: t.RetryAfterMax})
	if err := s.Tokens.Start(ctx); err != nil {
		return nil, fmt.Errorf("setup: token exchange for %s: %w", c.MerchantID, err)
	}
	return s.Tokens, nil
}

// consentToWrite is called by a setup before its first write: it refuses
// LIVE writes without the operator's consent (see live.go), saying what the
// setup writes and, when it can, how to run without writing.
func (s *Scenario) consentToWrite(ctx context.Context, writes, instead string) error {
	src, err := s.tokens(ctx)
	if err != nil {
		return err
	}
	allow := s.target.AllowLive || s.target.Embedded
	var v liveguard.Verdict
	if !s.target.Embedded {
		cur := src.Current()
		v = liveguard.Check(ctx, s.hc, s.base, s.target.Creds[0].SecretKey, cur.Environment, cur.Value)
		if v.Disagreement != "" { // a finding, with consent or without
			s.Notes = append(s.Notes, "the target contradicts itself about the environment ("+v.Disagreement+"): the credentials are taken as LIVE")
		}
	}
	err = checkLiveConsent(v, s.Name, allow)
	var lr *LiveRefusal
	if errors.As(err, &lr) {
		lr.Writes, lr.Instead = writes, instead
	}
	return err
}

// onClose registers a teardown step, run by Close.
func (s *Scenario) onClose(f func(context.Context)) { s.cleanups = append(s.cleanups, f) }

// maskURL records the scrubbed form of a URL the scenario sends to.
func (s *Scenario) maskURL(u string) { s.urlMask[u] = scrub.URL(u) }

// weightedTargeter interleaves endpoints by smooth weighted round robin over
// a precomputed cycle, so the mix is exact over every cycle and each call is
// one atomic add.
func weightedTargeter(weights map[string]int, gens map[string]Generator) vegeta.Targeter {
	names := make([]string, 0, len(weights))
	for k, w := range weights {
		if w > 0 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if len(names) == 1 {
		g := gens[names[0]]
		return func(t *vegeta.Target) error {
			if t == nil {
				return vegeta.ErrNilTarget
			}
			return g(t)
		}
	}
	total := 0
	for _, n := range names {
		total += weights[n]
	}
	cur := make([]int, len(names))
	cycle := make([]Generator, 0, total)
	for i := 0; i < total; i++ {
		best := 0
		for j, n := range names {
			cur[j] += weights[n]
			if cur[j] > cur[best] {
				best = j
			}
		}
		cur[best] -= total
		cycle = append(cycle, gens[names[best]])
	}
	var n atomic.Uint64
	return func(t *vegeta.Target) error {
		if t == nil {
			return vegeta.ErrNilTarget
		}
		return cycle[(n.Add(1)-1)%uint64(len(cycle))](t)
	}
}
