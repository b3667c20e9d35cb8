package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/merchant-harness/mph/loadtest/tokens"
)

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
