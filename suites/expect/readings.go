package expect

// Amounts whose arithmetic the document leaves open: which side pays the
// withdrawalFee ("fee charged when balance is swept back to the vault") and
// how fundFee applies ("fee charged per funding operation (percentage or
// amount)"). Each helper lists the amounts the profile's reading allows; nil
// means the profile leaves the amount unchecked.

import (
	"math/big"
	"slices"
	"strings"

	"github.com/merchant-harness/mph/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// InitialBalances are the balances a card newly funded with amount may show
// (issuance.initialBalance, with fundFee read per cards.fundFeeUnit): the
// amount itself, or the amount less the fund fee as an amount or as a
// percentage (exact, or rounded to the cent). nil: unchecked.
func InitialBalances(amount, fundFee Money) []Money {
	p := framework.Profile()
	switch p.Issuance.InitialBalance {
	case "amount":
		return []Money{amount}
	case "amount-minus-fund-fee":
		return fundFeeDeducted(amount, fundFee, p.Cards.FundFeeUnit)
	case "either":
		return uniqueMoney(append([]Money{amount}, fundFeeDeducted(amount, fundFee, p.Cards.FundFeeUnit)...))
	}
	return nil
}

// fundFeeDeducted is amount less fundFee read as unit (amount, percent or
// either); a percentage fee may be rounded to the cent either way.
func fundFeeDeducted(amount, fundFee Money, unit string) []Money {
	var out []Money
	if unit != "percent" {
		out = append(out, amount.Sub(fundFee))
	}
	if unit != "amount" {
		fee := new(big.Rat).Mul(amount.rat(), fundFee.rat())
		fee.Quo(fee, big.NewRat(100, 1))
		for _, f := range centRoundings(fee) {
			out = append(out, amount.Sub(Money{f}))
		}
	}
	return uniqueMoney(out)
}

// centRoundings are r exact and rounded to the cent down, up and half up.
func centRoundings(r *big.Rat) []*big.Rat {
	c := new(big.Rat).Mul(r, big.NewRat(100, 1))
	down := new(big.Int).Quo(c.Num(), c.Denom()) // amounts here are not negative
	up := new(big.Int).Set(down)
	if !c.IsInt() {
		up.Add(up, big.NewInt(1))
	}
	half := new(big.Rat).Add(c, big.NewRat(1, 2))
	halfUp := new(big.Int).Quo(half.Num(), half.Denom())
	out := []*big.Rat{r}
	for _, n := range []*big.Int{down, up, halfUp} {
		out = append(out, new(big.Rat).SetFrac(n, big.NewInt(100)))
	}
	return out
}

// WithdrawalCardDebits are what a withdrawal of amount may take from the
// card (cards.withdrawCardDebit): the amount, or the amount and the fee.
// nil: unchecked.
func WithdrawalCardDebits(amount, fee Money) []Money {
	switch framework.Profile().Cards.WithdrawCardDebit {
	case "amount":
		return []Money{amount}
	case "amount-plus-fee":
		return []Money{amount.Add(fee)}
	case "either":
		return uniqueMoney([]Money{amount, amount.Add(fee)})
	}
	return nil
}

// WithdrawalVaultCredits are what a withdrawal of amount may credit the
// vault (cards.withdrawVaultCredit): the amount, or the amount less the fee.
// nil: unchecked.
func WithdrawalVaultCredits(amount, fee Money) []Money {
	switch framework.Profile().Cards.WithdrawVaultCredit {
	case "amount":
		return []Money{amount}
	case "amount-minus-fee":
		return []Money{amount.Sub(fee)}
	case "either":
		return uniqueMoney([]Money{amount, amount.Sub(fee)})
	}
	return nil
}

// ExpectAmountOneOf asserts got is one of the allowed amounts; with none
// allowed (nil: the profile leaves it unchecked) it asserts nothing. key
// names the profile key that sets the readings.
func ExpectAmountOneOf(got Money, allowed []Money, what, key string) {
	GinkgoHelper()
	if allowed == nil {
		return
	}
	s := make([]string, len(allowed))
	for i, a := range allowed {
		s[i] = a.String()
	}
	Expect(slices.ContainsFunc(allowed, got.Eq)).To(BeTrue(), "%s is %s, want %s (profile %s)", what, got, strings.Join(s, " or "), key)
}

func uniqueMoney(ms []Money) []Money {
	var out []Money
	for _, m := range ms {
		if !slices.ContainsFunc(out, m.Eq) {
			out = append(out, m)
		}
	}
	return out
}
