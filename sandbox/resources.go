package sandbox

import (
	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/state"
)

// The configuration's answer, the default billing address, the fees and
// rates (the resources' shapes: sandbox/state).

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

// Fees and rates of docs/sandbox.md, per merchant and environment.
const (
	creationFee   = 1_00
	fundFee       = 1_00
	withdrawalFee = 5
	minFunding    = 1_00
	minWithdrawal = 10
	exchangeRate  = 1550_00 // NGN per USD, in kobo per dollar
	giftFeeNGN    = 250_00
)
