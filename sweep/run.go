package sweep

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/money"
)

// Tally is what sweeping one merchant's cards of a run did.
type Tally struct {
	Cards, Frozen int
	Swept, Left   int64    // minor units
	Problems      []string // one line per card that could not be swept
}

// Run sweeps the cards of the run runID (their reference begins with it)
// that c's merchant holds: ACTIVE ones until none is left (a swept card is
// FROZEN and drops out of the list), then FROZEN ones still holding a
// sweepable balance. Cards are listed limit at a time.
func Run(ctx context.Context, c *client.Client, runID string, limit int, r Rules) (Tally, error) {
	var t Tally
	done := map[string]bool{}
	for _, status := range []string{"ACTIVE", "FROZEN"} {
		for round := 0; round < 100; round++ {
			ids, err := runCards(ctx, c, runID, limit, status, done)
			if err != nil || len(ids) == 0 {
				if err != nil {
					return t, err
				}
				break
			}
			for _, id := range ids {
				done[id] = true
				out, err := Card(ctx, c, id, false, r)
				t.Cards++
				t.Swept += out.Swept
				t.Left += out.Left
				if out.Frozen {
					t.Frozen++
				}
				if err != nil {
					t.Problems = append(t.Problems, fmt.Sprintf("card %s: %v", id, err))
				}
			}
		}
	}
	return t, nil
}

// RulesFor are the rules of the target the profile describes: where a
// withdrawal's fee falls (not shown), and the fee GET /cards/config states
// when one applies.
func RulesFor(ctx context.Context, c *client.Client, p *api.Profile) (Rules, error) {
	if p.Cards.WithdrawVaultCredit == "amount" && p.Cards.WithdrawCardDebit == "amount" {
		return Rules{}, nil
	}
	resp, err := c.Get(ctx, "/cards/config", nil)
	if err != nil {
		return Rules{}, err
	}
	d, _ := resp.Map()["data"].(map[string]any)
	fee, err := money.Parse(fmt.Sprint(d["withdrawalFee"]))
	if resp.Status != http.StatusOK || err != nil {
		return Rules{}, fmt.Errorf("GET /cards/config answered HTTP %d without a withdrawalFee", resp.Status)
	}
	r := Rules{Fee: fee.Minor(), CardFee: fee.Minor()}
	if p.Cards.WithdrawVaultCredit == "amount" {
		r.Fee = 0
	}
	if p.Cards.WithdrawCardDebit == "amount" {
		r.CardFee = 0
	}
	return r, nil
}

// runCards lists the cards of the run in a status not handled yet.
func runCards(ctx context.Context, c *client.Client, runID string, limit int, status string, done map[string]bool) ([]string, error) {
	q := url.Values{"status": {status}, "search": {runID}, "limit": {strconv.Itoa(limit)}}
	resp, err := c.Get(ctx, "/cards", q)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, fmt.Errorf("GET /cards?search answered HTTP %d", resp.Status)
	}
	list, _ := resp.Map()["data"].([]any)
	var ids []string
	for _, x := range list {
		card, _ := x.(map[string]any)
		id, _ := card["id"].(string)
		ref, _ := card["reference"].(string)
		if id == "" || done[id] || !strings.HasPrefix(ref, runID) {
			continue
		}
		ids = append(ids, id)
	}
	return ids, nil
}
