// Package funds holds the conformance specs of a card's money: spend
// limits, withdrawals, simulated transactions and the model-based spec of
// balances, statuses, spend totals and the vault. Its specs register with
// Ginkgo at init; package suites imports it.
package funds
