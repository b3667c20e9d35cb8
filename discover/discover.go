// Package discover proposes a target profile (api/profile.default.yaml)
// for a new server: it sends a small, documented set of requests as the main
// TEST merchant and reads from the answers what the API document leaves "not
// shown": where the customer id, the card, the gift order, its reference and
// transaction id sit, quote parameters and answer members, whether
// X-Merchant-Id is checked, how the withdrawal fee and the initial card
// balance apply, the listing maximum, the refusal statuses and, when a
// receiver can be reached, the webhook payload and signature. It tries the
// documented names first and searches the answers for the values it sent.
//
// Money: one card funded with 2.00 USD (plus the creation fee) that is swept
// back and frozen, and, unless skipped, one gift card order of the smallest
// face value the target accepts.
package discover

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/liveguard"
)

// Options configure a discovery.
type Options struct {
	Config       *config.Config // the resolved target (main TEST merchant)
	SkipPurchase bool           // no gift card order (its keys stay undetermined)
	Logf         func(format string, args ...any)
}

// Result is what the discovery settled.
type Result struct {
	Found        []Finding
	Undetermined []Undetermined
	Notes        []string // observations for the profile's header
	Requests     int
}

// Run discovers the target's profile. It fails only when the target cannot
// be used at all (no token, no card configuration).
func Run(ctx context.Context, o Options) (*Result, error) {
	p := newProber(o)
	if _, err := p.api.Tokens().Token(ctx); err != nil {
		return nil, fmt.Errorf("token exchange: %w", err)
	}
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{"fees", p.readFees},
		{"merchant header", p.merchantHeader},
		{"customers", p.customers},
		{"issuance", p.issuance},
		{"listing maximum", p.listMax},
		{"withdrawal", p.withdrawal},
		{"webhooks", p.webhooks},
		{"input refusals", p.inputRefusals},
		{"refusals", p.refusals},
		{"sweep", p.sweep},
		{"gift quote", p.giftQuote},
		{"gift purchase", p.giftPurchase},
		{"betting quote", p.bettingQuote},
	}
	for _, s := range steps {
		p.logf("discover: %s", s.name)
		if err := s.fn(ctx); err != nil {
			// Whatever failed, the discovery card goes back to the vault.
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			if serr := p.sweep(sctx); serr != nil {
				p.logf("discover: sweeping the discovery card %s: %v", p.card, serr)
			}
			return p.res, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	p.undetermined("cards.spendLimitTimezone", "needs card transactions across a day boundary")
	p.res.Requests = int(p.requests.Load())
	return p.res, nil
}

// prober carries the state between the discovery steps.
type prober struct {
	o        Options
	cfg      *config.Config
	api      *client.Client
	anon     *client.Client
	res      *Result
	requests atomic.Int64
	runRef   string
	seq      int

	fees     fees
	customer string
	names    map[string]string // registration field names that worked
	card     string
	cardBal  string // balance after issuance, decimal
}

type fees struct {
	creation, fund, withdrawal, minFunding string
}

func newProber(o Options) *prober {
	cfg := o.Config
	p := &prober{o: o, cfg: cfg, res: &Result{}, runRef: cfg.RunID + "-disc"}
	hc := cfg.HTTPClient()
	hc.Transport = countingTransport{hc.Transport, &p.requests}
	// No write carrying a LIVE credential leaves without --allow-live.
	hc, _ = liveguard.Wrap(hc, cfg.AllowLive || cfg.Embedded)
	maxBody := cfg.BodyCap(config.DefaultConformMaxBody)
	p.anon = client.New(client.Options{BaseURL: cfg.BaseURL, HTTP: hc, Timeout: cfg.Timeout, MaxBody: maxBody, RetryAfterMax: cfg.RetryAfterMax})
	ts := client.NewTokenSource(p.anon, cfg.Primary.MerchantID, cfg.Primary.SecretKey)
	p.api = client.New(client.Options{BaseURL: cfg.BaseURL, HTTP: hc, Timeout: cfg.Timeout, Tokens: ts, MaxBody: maxBody, RetryAfterMax: cfg.RetryAfterMax})
	return p
}

type countingTransport struct {
	base http.RoundTripper
	n    *atomic.Int64
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	return t.base.RoundTrip(r)
}

func (p *prober) logf(format string, args ...any) {
	if p.o.Logf != nil {
		p.o.Logf(format, args...)
	}
}

// ref is a unique reference carrying the run id.
func (p *prober) ref(kind string) string {
	p.seq++
	return fmt.Sprintf("%s-%d-%s-%d", p.runRef, p.seq, kind, time.Now().UnixNano()%100000)
}

func (p *prober) found(key string, value any, how, sure string) {
	p.res.Found = append(p.res.Found, Finding{Key: key, Value: value, How: how, Sure: sure})
}

func (p *prober) undetermined(key, why string) {
	p.res.Undetermined = append(p.res.Undetermined, Undetermined{Key: key, Why: why})
}

func (p *prober) note(format string, args ...any) {
	p.res.Notes = append(p.res.Notes, fmt.Sprintf(format, args...))
}
