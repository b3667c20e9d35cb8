// Package sweep returns a test card's money to the merchant's vault: it
// withdraws the card's balance when a withdrawal can return money (at least
// the documented 0.10 USD minimum and more than the withdrawal fee) and
// leaves the card FROZEN. The conformance teardown and `mph sweep` use it.
package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/money"
)

// MinWithdrawal is the documented minimum withdrawal, 0.10 USD.
const MinWithdrawal = 10

// Rules say when a withdrawal returns money.
type Rules struct {
	// Fee is what one withdrawal costs the vault (minor units): the
	// withdrawalFee, or 0 when the target credits the whole amount.
	Fee int64
	// CardFee is what a withdrawal may take from the card beyond its
	// amount (the fee's side is not shown): when withdrawing the whole
	// balance is refused, the balance less CardFee is withdrawn.
	CardFee int64
}

// Outcome is what happened to one card.
type Outcome struct {
	Swept  int64 // withdrawn to the vault (minor units, before the fee)
	Frozen bool
	Left   int64 // balance the card still holds
	Status string
}

// Card sweeps and freezes the card (by id or reference) through api. With
// keep it only reads what the card holds.
func Card(ctx context.Context, api *client.Client, id string, keep bool, r Rules) (Outcome, error) {
	c, err := Read(ctx, api, id)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Left: c.Balance, Status: c.Status}
	if keep {
		return out, nil
	}
	// A spec still running (an interrupted run) may move the balance
	// between the read and the withdrawal: read again and retry.
	for attempt := 0; c.Balance >= MinWithdrawal && c.Balance > r.Fee; attempt++ {
		amount := c.Balance
		werr := withdrawAll(ctx, api, id, c, amount)
		if net := c.Balance - r.CardFee; werr != nil && r.CardFee > 0 && net >= MinWithdrawal && !client.IsNetError(werr) {
			// A fee taken from the card: the whole balance is more than it holds.
			amount, werr = net, withdrawAll(ctx, api, id, State{Balance: net, Status: c.Status}, net)
		}
		if werr == nil {
			out.Swept += amount
		} else if attempt == 2 {
			return out, werr
		}
		if c, err = Read(ctx, api, id); err != nil {
			return out, err
		}
		out.Left, out.Status = c.Balance, c.Status
		if werr == nil {
			break
		}
	}
	if c.Status != "FROZEN" {
		if err := SetStatus(ctx, api, id, "FROZEN"); err != nil {
			return out, err
		}
	}
	out.Frozen, out.Status = true, "FROZEN"
	return out, nil
}

// State is a card's balance (minor units) and status.
type State struct {
	Balance int64
	Status  string
}

// Read reads a card with GET /cards/{id}.
func Read(ctx context.Context, api *client.Client, id string) (State, error) {
	resp, err := api.Get(ctx, "/cards/"+client.Seg(id), nil)
	if err != nil {
		return State{}, err
	}
	if resp.Status != http.StatusOK {
		return State{}, fmt.Errorf("GET answered HTTP %d", resp.Status)
	}
	d, _ := resp.Map()["data"].(map[string]any)
	return StateOf(d)
}

// StateOf reads a Card object's balance and status.
func StateOf(card map[string]any) (State, error) {
	n, _ := card["balanceAmount"].(json.Number)
	a, err := money.Parse(n.String())
	if err != nil {
		return State{}, fmt.Errorf("the card has no readable balanceAmount")
	}
	st, _ := card["status"].(string)
	return State{Balance: a.Minor(), Status: st}, nil
}

// withdrawAll withdraws amount (the whole balance, or the balance less a
// card-side fee); a target that refuses withdrawals from a FROZEN card gets
// it unfrozen for the sweep (Card freezes it after).
func withdrawAll(ctx context.Context, api *client.Client, id string, c State, amount int64) error {
	path := "/cards/" + client.Seg(id) + "/withdraw"
	body := map[string]any{"amount": json.Number(money.Amount(amount).String())}
	resp, err := api.Post(ctx, path, body)
	if err != nil {
		return err
	}
	if resp.Status == http.StatusOK {
		return nil
	}
	if c.Status == "FROZEN" {
		if err := SetStatus(ctx, api, id, "ACTIVE"); err != nil {
			return err
		}
		if resp, err = api.Post(ctx, path, body); err != nil {
			return err
		}
		if resp.Status == http.StatusOK {
			return nil
		}
	}
	return fmt.Errorf("withdrawing %s USD answered HTTP %d: %.200s", money.Amount(amount), resp.Status, resp.Body)
}

// SetStatus sets a card's status.
func SetStatus(ctx context.Context, api *client.Client, id, status string) error {
	resp, err := api.Patch(ctx, "/cards/"+client.Seg(id)+"/status", map[string]any{"status": status})
	if err != nil {
		return err
	}
	if resp.Status != http.StatusOK {
		return fmt.Errorf("PATCH status %s answered HTTP %d", status, resp.Status)
	}
	return nil
}
