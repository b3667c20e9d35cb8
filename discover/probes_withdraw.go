package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sweep"
)

// listMax finds the highest accepted GET /cards limit between the documented
// default (50) and 1000 by bisection.
func (p *prober) listMax(ctx context.Context) error {
	accepts := func(n int) (bool, error) {
		resp, err := p.api.Get(ctx, "/cards", url.Values{"limit": {strconv.Itoa(n)}})
		if err != nil {
			return false, err
		}
		return resp.Status == http.StatusOK, nil
	}
	if ok, err := accepts(50); err != nil || !ok {
		p.undetermined("cards.listMaxLimit", "GET /cards?limit=50 was not accepted")
		return err
	}
	if ok, err := accepts(1000); err != nil || ok {
		if ok {
			p.found("cards.listMaxLimit", 1000, "GET /cards?limit=1000 was accepted; higher limits were not tried", "low")
		}
		return err
	}
	lo, hi := 50, 1000
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		ok, err := accepts(mid)
		if err != nil {
			return err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	p.found("cards.listMaxLimit", lo, fmt.Sprintf("GET /cards accepts limit=%d and refuses limit=%d", lo, hi), "high")
	return nil
}

// withdrawal withdraws 0.50 USD and compares the vault's credit with the fee.
func (p *prober) withdrawal(ctx context.Context) error {
	if p.card == "" {
		p.undetermined("cards.withdrawVaultCredit", "no card could be issued")
		return nil
	}
	before, err := p.config(ctx)
	if err != nil {
		return err
	}
	resp, err := p.api.Post(ctx, "/cards/"+client.Seg(p.card)+"/withdraw", map[string]any{"amount": json.Number("0.50")})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		p.undetermined("cards.withdrawVaultCredit", fmt.Sprintf("a withdrawal of 0.50 answered HTTP %d", resp.Status))
		return nil
	}
	after, err := p.config(ctx)
	if err != nil {
		return err
	}
	credit := decSub(num(after, "vaultBalance"), num(before, "vaultBalance"))
	net := decSub("0.50", p.fees.withdrawal)
	switch {
	case sameDecimal(credit, net) && !sameDecimal(net, "0.50"):
		p.found("cards.withdrawVaultCredit", "amount-minus-fee", "withdrawing 0.50 credited the vault "+credit+" = 0.50 - withdrawalFee "+p.fees.withdrawal, "high")
	case sameDecimal(credit, "0.50") && sameDecimal(net, "0.50"):
		p.found("cards.withdrawVaultCredit", "amount-minus-fee", "withdrawing 0.50 credited the vault 0.50 (withdrawalFee is 0: amount would read the same)", "medium")
	case sameDecimal(credit, "0.50"):
		p.found("cards.withdrawVaultCredit", "amount", "withdrawing 0.50 credited the vault the whole 0.50 although withdrawalFee is "+p.fees.withdrawal, "high")
	default:
		p.found("cards.withdrawVaultCredit", "unchecked", "withdrawing 0.50 changed the vault by "+credit+" (another operation may have run meanwhile)", "low")
	}
	return nil
}

// refusals reads the statuses of refusals whose error the document does not
// show; each refused request changes nothing.
func (p *prober) refusals(ctx context.Context) error {
	if p.card == "" {
		return nil
	}
	card := "/cards/" + client.Seg(p.card)
	checks := []struct {
		key, what string
		req       client.Request
	}{
		{"errors.status.withdrawAboveBalance", "a withdrawal above the card balance", client.Request{Method: http.MethodPost, Path: card + "/withdraw", Body: map[string]any{"amount": json.Number("100000.00")}}},
		{"errors.status.invalidValue", "status PAUSED", client.Request{Method: http.MethodPatch, Path: card + "/status", Body: map[string]any{"status": "PAUSED"}}},
		{"errors.status.invalidFormat", "a contact mobile in neither local nor +international form", client.Request{Method: http.MethodPatch, Path: card + "/contact", Body: map[string]any{"mobile": "call-me-maybe"}}},
	}
	for _, c := range checks {
		if err := p.refusal(ctx, c.key, c.what, c.req); err != nil {
			return err
		}
	}
	if _, err := p.setStatus(ctx, "FROZEN"); err != nil {
		return err
	}
	return p.refusal(ctx, "errors.status.frozenCardSecure", "GET /cards/{id}/secure of a FROZEN card", client.Request{Method: http.MethodGet, Path: card + "/secure"})
}

func (p *prober) refusal(ctx context.Context, key, what string, req client.Request) error {
	resp, err := p.api.Do(ctx, req)
	if err != nil {
		return err
	}
	if !is4xx(resp) {
		p.undetermined(key, fmt.Sprintf("%s answered HTTP %d, not a refusal", what, resp.Status))
		return nil
	}
	p.found(key, resp.Status, fmt.Sprintf("%s answered HTTP %d", what, resp.Status), "high")
	if key == "errors.status.invalidFormat" {
		p.found("errors.refuses.contactMobile", true, fmt.Sprintf("%s was refused", what), "high")
	}
	return nil
}

func (p *prober) setStatus(ctx context.Context, status string) (*client.Response, error) {
	return p.api.Patch(ctx, "/cards/"+client.Seg(p.card)+"/status", map[string]any{"status": status})
}

// sweep returns what the discovery card still holds to the vault and
// leaves it FROZEN.
func (p *prober) sweep(ctx context.Context) error {
	if p.card == "" {
		return nil
	}
	fee, err := money.Parse(p.fees.withdrawal)
	if err != nil {
		fee = 0
	}
	out, err := sweep.Card(ctx, p.api, p.card, false, sweep.Rules{Fee: fee.Minor()})
	if out.Swept > 0 {
		p.note("swept %s USD of the discovery card back to the vault", money.Amount(out.Swept))
	}
	return err
}
