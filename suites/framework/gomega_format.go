package framework

import (
	"encoding/json"
	"fmt"

	"github.com/onsi/gomega/format"
)

// Failure messages show harness values in their wire form through Gomega's
// format.GomegaStringer: an amount as "1.00", a card as
// "card crd_… ACTIVE 1.00 USD", so that a failed length or containment
// assertion lists ids, statuses and balances instead of struct dumps.

// GomegaString renders the amount exactly, as on the wire.
func (m Money) GomegaString() string { return m.String() }

// GomegaString renders a card as its id, status and balance.
func (c Card) GomegaString() string {
	id := c.ID
	if id == "" {
		id = "(no id)"
	}
	s := "card " + id
	if c.Status != "" {
		s += " " + c.Status
	}
	if c.Balance.r != nil {
		s += " " + c.Balance.String()
		if cur, ok := c.Raw["currency"].(string); ok && cur != "" {
			s += " " + cur
		}
	}
	if c.Reference != "" {
		s += " ref " + c.Reference
	}
	return s
}

// GomegaString renders the card configuration on one line.
func (c Config) GomegaString() string {
	return fmt.Sprintf("config %s: creationFee %s, fundFee %s, withdrawalFee %s, minFunding %s, exchangeRate %s, vaultBalance %s",
		c.Environment, c.CreationFee, c.FundFee, c.WithdrawalFee, c.MinFunding, c.ExchangeRate, c.VaultBalance)
}

// Decoded JSON (objects, arrays, exact numbers) prints as compact JSON, the
// form the target sent, instead of Go's map and slice syntax.
func init() {
	format.RegisterCustomFormatter(func(v any) (string, bool) {
		switch t := v.(type) {
		case json.Number:
			return t.String(), true
		case map[string]any, []any:
			b, err := json.Marshal(t)
			if err != nil {
				return "", false
			}
			return string(b), true
		}
		return "", false
	})
}
