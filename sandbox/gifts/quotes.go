package gifts

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/validate"
)

const (
	betMin     = 100_00
	betMax     = 5000000_00
	betFeeBP   = 150 // 1.5 %
	betFeeMin  = 50_00
	betDefault = "BET9JA"
)

type bettingQuote struct {
	Provider   string       `json:"provider"`
	Amount     money.Amount `json:"amount"`
	Currency   string       `json:"currency"`
	Fee        money.Amount `json:"fee"`
	TotalDebit money.Amount `json:"totalDebit"`
}

// BettingQuote is GET /betting/quote?amount=..&provider=..
func (s *Endpoints) BettingQuote(rc *answer.Req) {
	q := rc.R.URL.Query()
	v := validate.Of(nil)
	var amt money.Amount
	if t := q.Get("amount"); t == "" {
		v.Add("amount should not be empty")
	} else {
		amt, _ = v.CheckAmount("amount", t, betMin, false, betMax)
	}
	provider := betDefault
	if p, has := q["provider"]; has {
		provider = strings.ToUpper(p[0])
		v.Match("provider", provider, validate.Provider, "must contain 1 to 32 letters, digits or '_'")
		if provider == "" {
			v.Add("provider should not be empty")
		}
	}
	if rc.Invalid(&v) {
		return
	}
	fee := max(money.Percent(amt, betFeeBP), betFeeMin)
	rc.EnvelopeA(http.StatusOK, bettingQuote{Provider: provider, Amount: amt, Currency: "NGN", Fee: fee, TotalDebit: amt + fee})
}
