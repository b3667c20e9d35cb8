package framework

// The vault balance read around writes: GET /cards/config's vaultBalance is
// not documented as real-time ("vaultBalance | available unspent balance of
// the merchant USD vault"; only the card balance is "real-time"), so a spec
// takes the balance before a write from the sandbox balances control where
// the target offers it (the vault itself), and waits for the configuration
// to show the balance after it within cards.listingFreshness.

import (
	"context"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// VaultNow is the primary merchant's vault balance as it is now: the
// balances control's when the target offers it, else the configuration's
// (then as fresh as the target keeps it).
func VaultNow(ctx context.Context) Money {
	GinkgoHelper()
	if Has(CapBalances) {
		b, err := Controls().Balances(ctx, Cfg().Primary.MerchantID, Environment())
		if err != nil {
			HarnessError("sandbox control balances: %v", err)
		}
		m, ok := MoneyOf(b.VaultBalance)
		if !ok {
			HarnessError("sandbox control balances: vaultBalance %q is not a number", b.VaultBalance)
		}
		return m
	}
	return GetConfig(ctx).VaultBalance
}

// ExpectVaultShows waits until GET /cards/config's vaultBalance is one of
// the allowed balances, within cards.listingFreshness (EventuallyFresh:
// beyond it no verdict, a failure under strict.listingFreshness); with the
// balances control the vault itself must be one of them at once. what
// names the expectation.
func ExpectVaultShows(ctx context.Context, what string, allowed ...Money) {
	GinkgoHelper()
	if Has(CapBalances) {
		ExpectAmountOneOf(VaultNow(ctx), allowed, what+": the vault (sandbox balances control)", "the fee readings of the profile")
	}
	EventuallyFresh(ctx, what+": GET /cards/config's vaultBalance", func(g gomega.Gomega) {
		got := GetConfig(ctx).VaultBalance
		g.Expect(slices.ContainsFunc(allowed, got.Eq)).To(gomega.BeTrue(), "%s: vaultBalance %s, want %v", what, got, allowed)
	})
}
