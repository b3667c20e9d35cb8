package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/scrub"
	"github.com/merchant-harness/mph/loadtest/tokens"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Endpoint names.
const (
	EPToken  = "token"
	EPList   = "list"
	EPSecure = "secure"
)

// Scenarios lists the scenario names.
var Scenarios = []string{"token", "list", "secure", "mixed"}

// ScenarioOptions configure Prepare.
type ScenarioOptions struct {
	Name      string
	Mix       map[string]int // weights for mixed (default list=6,secure=3,token=1)
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
	cleanup   func(context.Context)
	cardIDs   []string
	target    *Target      // network settings of the attack
	hc        *http.Client // setup and the probe's single requests
}

func (s *Scenario) attackOptions(o AttackOptions) AttackOptions {
	if s.target == nil {
		return o
	}
	return s.target.attackOptions(o)
}

func (s *Scenario) retryAfterMax() time.Duration {
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

// Classify maps a result URL to its endpoint name.
func Classify(u string) string {
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	switch {
	case strings.HasSuffix(p, "/secure"):
		return EPSecure
	case strings.HasSuffix(p, authtoken.Path):
		return EPToken
	case strings.HasSuffix(p, "/cards"):
		return EPList
	}
	return "other"
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
	if s.cleanup != nil {
		s.cleanup(ctx)
	}
	if s.Tokens != nil {
		s.Tokens.Close()
	}
}

// ParseMix parses "list=6,secure=3,token=1".
func ParseMix(s string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("mix %q: want name=weight,... (e.g. list=6,secure=3,token=1)", s)
		}
		if k != EPToken && k != EPList && k != EPSecure {
			return nil, fmt.Errorf("mix %q: unknown endpoint %q (want token, list, secure)", s, k)
		}
		out[k] = n
	}
	total := 0
	for _, n := range out {
		total += n
	}
	if total == 0 {
		return nil, fmt.Errorf("mix %q: weights sum to zero", s)
	}
	return out, nil
}

// Prepare runs the scenario's setup on the target.
func Prepare(ctx context.Context, t *Target, o ScenarioOptions) (*Scenario, error) {
	o.defaults()
	if len(t.Creds) == 0 {
		return nil, fmt.Errorf("load: no credentials")
	}
	weights, err := scenarioWeights(o)
	if err != nil {
		return nil, err
	}
	s := &Scenario{Name: o.Name, urlMask: map[string]string{}, target: t, hc: t.httpClient()}
	for _, ep := range []string{EPToken, EPList, EPSecure} {
		if weights[ep] > 0 {
			s.Endpoints = append(s.Endpoints, ep)
		}
	}
	base := strings.TrimRight(t.BaseURL, "/")
	// Shared token source, needed by list and secure (and by setup).
	if weights[EPList] > 0 || weights[EPSecure] > 0 {
		c := t.Creds[0]
		s.Tokens = tokens.New(tokens.HTTPFetcher(s.hc, base, c.MerchantID, c.SecretKey), tokens.Options{RetryAfterMax: t.RetryAfterMax})
		if err := s.Tokens.Start(ctx); err != nil {
			return nil, fmt.Errorf("setup: token exchange for %s: %w", c.MerchantID, err)
		}
	}
	if writesDuringSetup(weights, o) {
		if err := checkLiveConsent(s.Tokens.Current().Environment, o.Name, t.AllowLive || t.Embedded); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	gens := map[string]func(*vegeta.Target) error{}
	if weights[EPToken] > 0 {
		gens[EPToken] = tokenTargets(t, base)
	}
	if weights[EPList] > 0 {
		gens[EPList] = listTargets(s.Tokens, base+"/cards?"+strings.TrimPrefix(o.ListQuery, "?"))
	}
	if weights[EPSecure] > 0 {
		if gens[EPSecure], err = s.secureTargets(ctx, o, base); err != nil {
			s.Close(ctx)
			return nil, err
		}
	}
	s.Targeter = weightedTargeter(weights, gens)
	return s, nil
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

// scenarioWeights is the scenario's endpoint mix.
func scenarioWeights(o ScenarioOptions) (map[string]int, error) {
	switch o.Name {
	case "token", "list", "secure":
		return map[string]int{o.Name: 1}, nil
	case "mixed":
		if len(o.Mix) == 0 {
			return map[string]int{EPList: 6, EPSecure: 3, EPToken: 1}, nil
		}
		return o.Mix, nil
	}
	return nil, fmt.Errorf("unknown scenario %q (want token, list, secure or mixed)", o.Name)
}

// tokenTargets exchanges the credentials in turn.
func tokenTargets(t *Target, base string) func(*vegeta.Target) error {
	bodies := make([][]byte, len(t.Creds))
	for i, c := range t.Creds {
		bodies[i] = authtoken.Credentials{MerchantID: c.MerchantID, SecretKey: c.SecretKey}.Body()
	}
	hdr := http.Header{"Content-Type": []string{"application/json"}}
	u := base + authtoken.Path
	var n atomic.Uint64
	return func(tg *vegeta.Target) error {
		i := n.Add(1)
		*tg = vegeta.Target{Method: http.MethodPost, URL: u, Body: bodies[i%uint64(len(bodies))], Header: hdr}
		return nil
	}
}

func listTargets(src *tokens.Source, u string) func(*vegeta.Target) error {
	return func(tg *vegeta.Target) error {
		*tg = vegeta.Target{Method: http.MethodGet, URL: u, Header: src.Header()}
		return nil
	}
}

// secureTargets reads the secure details of the given cards in turn, or of
// a pool of cards it creates (and sweeps at teardown when asked).
func (s *Scenario) secureTargets(ctx context.Context, o ScenarioOptions, base string) (func(*vegeta.Target) error, error) {
	t, ids := s.target, o.CardIDs
	if len(ids) == 0 {
		pool := &cardPool{hc: s.hc, base: base, src: s.Tokens, raMax: t.RetryAfterMax, logf: o.Logf}
		if err := pool.create(ctx, t, o.PoolSize); err != nil {
			return nil, pool.abandon(ctx, err)
		}
		ids = pool.ids
		s.Notes = append(s.Notes, pool.note())
		if o.Teardown {
			s.cleanup = func(ctx context.Context) { pool.sweep(ctx) }
		}
	} else {
		s.Notes = append(s.Notes, fmt.Sprintf("secure: %d card ids given, nothing created", len(ids)))
	}
	s.cardIDs = ids
	urls := make([]string, len(ids))
	for i, id := range ids {
		urls[i] = base + "/cards/" + id + "/secure"
		s.urlMask[urls[i]] = scrub.URL(urls[i])
	}
	src := s.Tokens
	var n atomic.Uint64
	return func(tg *vegeta.Target) error {
		i := n.Add(1)
		*tg = vegeta.Target{Method: http.MethodGet, URL: urls[i%uint64(len(urls))], Header: src.Header()}
		return nil
	}, nil
}

// weightedTargeter interleaves endpoints by smooth weighted round robin over
// a precomputed cycle, so the mix is exact over every cycle and each call is
// one atomic add.
func weightedTargeter(weights map[string]int, gens map[string]func(*vegeta.Target) error) vegeta.Targeter {
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
	cycle := make([]func(*vegeta.Target) error, 0, total)
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

// cardPool is the secure scenario's setup: one customer and n cards funded
// with the minimum amount, swept back to the vault at teardown or when setup
// fails or is interrupted.
type cardPool struct {
	hc    *http.Client
	base  string
	src   *tokens.Source
	raMax time.Duration // longest Retry-After honoured
	logf  func(string, ...any)
	ids   []string
}

// create registers one customer and issues n cards. Each write runs to its
// end even when ctx is cancelled meanwhile (bounded by the client timeout),
// so that every card the target funded is known and can be swept; ctx is
// checked between writes.
func (p *cardPool) create(ctx context.Context, t *Target, n int) error {
	sp := t.Setup
	if sp.IssuancePath == "" {
		sp = DefaultSetupProfile()
	}
	run := t.RunID
	if run == "" {
		run = fmt.Sprintf("mphload%d", time.Now().UnixNano()%1e9)
	}
	var body map[string]any
	if err := doJSON(ctx, p.hc, p.raMax, p.src, http.MethodPost, p.base+"/cards/customers", customerBody(sp, run), &body); err != nil {
		return fmt.Errorf("registering a customer: %w", err)
	}
	cid, _ := pointer(body, sp.CustomerIDPointer).(string)
	if cid == "" {
		return fmt.Errorf("registering a customer: no customer id at %s", sp.CustomerIDPointer)
	}
	for i := 0; i < n; i++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("issuing card %d of %d: %w", i+1, n, err)
		}
		req := map[string]any{sp.CustomerIDField: cid, "nameOnCard": "Load Tester", "amount": 1.00}
		if sp.ReferenceField != "" {
			req[sp.ReferenceField] = fmt.Sprintf("%s-load-%03d", run, i)
		}
		for k, v := range sp.Extra {
			req[k] = v
		}
		var out map[string]any
		if err := doJSON(ctx, p.hc, p.raMax, p.src, http.MethodPost, p.base+sp.IssuancePath, req, &out); err != nil {
			return fmt.Errorf("issuing card %d of %d: %w", i+1, n, err)
		}
		card, _ := pointer(out, sp.CardPointer).(map[string]any)
		id, _ := card["id"].(string)
		if id == "" {
			return fmt.Errorf("issuing a card: no id at %s", sp.CardPointer)
		}
		p.ids = append(p.ids, id)
	}
	p.logf("setup: %s", p.note())
	return nil
}

func customerBody(sp SetupProfile, run string) map[string]any {
	cust := map[string]any{
		"firstName": "Load", "lastName": "Tester", "email": run + "@load.example.com", "phoneNumber": "5550100",
	}
	vals := map[string]string{
		"phoneCountryCode": "+1", "dateOfBirth": "1990-01-15", "idType": "passport", "idNumber": "P1234567",
		"street": "1 Load Way", "city": "San Francisco", "state": "CA", "postalCode": "94105", "country": "USA",
	}
	for logical, v := range vals {
		if wire := sp.CustomerFields[logical]; wire != "" {
			cust[wire] = v
		}
	}
	return cust
}

func (p *cardPool) note() string {
	n := len(p.ids)
	return fmt.Sprintf("secure: created 1 customer and %d cards funded with 1.00 USD each (spend %d × (1.00 + creationFee) USD from the vault)", n, n)
}

// sweep withdraws each card's funding back to the vault and returns how many
// were swept.
func (p *cardPool) sweep(ctx context.Context) int {
	swept := 0
	for _, id := range p.ids {
		if err := doJSON(ctx, p.hc, p.raMax, p.src, http.MethodPost, p.base+"/cards/"+id+"/withdraw", map[string]any{"amount": 1.00}, nil); err == nil {
			swept++
		}
	}
	p.logf("teardown: swept the balance of %d of %d cards back to the vault", swept, len(p.ids))
	return swept
}

// sweepBudget bounds the sweep after a failed or interrupted setup.
const sweepBudget = 60 * time.Second

// abandon sweeps what a failed setup funded (on a context of its own, since
// ctx may be the cancelled one) and returns the SetupError describing it.
func (p *cardPool) abandon(ctx context.Context, err error) error {
	se := &SetupError{Err: fmt.Errorf("setup: %w", err), Interrupted: ctx.Err() != nil}
	if len(p.ids) == 0 {
		se.Notes = append(se.Notes, "secure: setup stopped before any card was issued")
		return se
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sweepBudget)
	defer cancel()
	swept := p.sweep(sctx)
	se.Notes = append(se.Notes, p.note(),
		fmt.Sprintf("secure: setup did not complete; swept the balance of %d of %d cards back to the vault (creation fees are not refundable)", swept, len(p.ids)))
	return se
}

// doJSON performs one setup call, retrying on 429 honouring Retry-After up
// to retryAfterMax. The exchange itself is not cancelled by ctx (a write the
// target may have applied must be seen to the end, bounded by the client's
// timeout); ctx stops the waits between attempts.
func doJSON(ctx context.Context, hc *http.Client, retryAfterMax time.Duration, src *tokens.Source, method, url string, in any, out any) error {
	b, _ := json.Marshal(in)
	for attempt := 0; ; attempt++ {
		if attempt > 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		code, hdr, rb, rerr, err := exchange(ctx, hc, src, method, url, b)
		if err != nil {
			return err
		}
		if code == http.StatusTooManyRequests && attempt < 8 {
			wait := time.Duration(100<<attempt) * time.Millisecond
			ra, ok, err := httpclient.RetryAfterHeader(hdr, retryAfterMax)
			if err != nil {
				return fmt.Errorf("%s %s answered 429: %w", method, scrub.URL(url), err)
			}
			if ok && ra > wait {
				wait = ra
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		if code == http.StatusUnauthorized && src != nil && attempt < 2 {
			src.Unauthorized(time.Now())
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if code < 200 || code >= 300 {
			return fmt.Errorf("%s %s answered %d", method, scrub.URL(url), code)
		}
		if rerr != nil {
			return fmt.Errorf("%s %s answered %d but reading its body failed: %w", method, scrub.URL(url), code, rerr)
		}
		if out != nil {
			return json.Unmarshal(rb, out)
		}
		return nil
	}
}

// exchange sends one request on a context detached from ctx's cancellation
// and bounded by the client's timeout (30 s when it has none). It returns
// the status, headers and body of the answer, the error reading that body
// (rerr), and err when no answer came.
func exchange(ctx context.Context, hc *http.Client, src *tokens.Source, method, url string, b []byte) (code int, hdr http.Header, rb []byte, rerr, err error) {
	to := hc.Timeout
	if to <= 0 {
		to = 30 * time.Second
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), to)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, url, bytes.NewReader(b))
	if err != nil {
		return 0, nil, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if src != nil {
		for k, v := range src.Header() {
			req.Header[k] = v
		}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	defer resp.Body.Close()
	rb, rerr = httpclient.ReadBody(resp.Body, setupMaxBody)
	return resp.StatusCode, resp.Header, rb, rerr, nil
}

// pointer resolves a simple JSON pointer ("/data/customerId").
func pointer(v any, p string) any {
	if p == "" || p == "/" {
		return v
	}
	for _, part := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch t := v.(type) {
		case map[string]any:
			v = t[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
