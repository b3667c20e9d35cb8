package sandbox

import "github.com/merchant-harness/mph/money"

// amount is a shorthand for rendering minor units.
func amount(n int64) money.Amount { return money.Amount(n) }
