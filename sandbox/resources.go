package sandbox

import (
	"strconv"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/state"
)

// The configuration's answer, the default billing address and the
// shorthands of rendering (the fees and rates and the resources' shapes:
// sandbox/state).

var defaultBilling = state.Address{Street: "1 Sandbox Way", City: "San Francisco", State: "CA", PostalCode: "94105", Country: "US"}

type configJSON struct {
	Environment   string       `json:"environment"`
	CreationFee   money.Amount `json:"creationFee"`
	FundFee       money.Amount `json:"fundFee"`
	WithdrawalFee money.Amount `json:"withdrawalFee"`
	MinFunding    money.Amount `json:"minFunding"`
	ExchangeRate  money.Amount `json:"exchangeRate"`
	VaultBalance  money.Amount `json:"vaultBalance"`
}

// amount is a shorthand for rendering minor units.
func amount(n int64) money.Amount { return money.Amount(n) }

func itoa(n int) string { return strconv.Itoa(n) }
