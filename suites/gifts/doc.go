// Package gifts holds the conformance specs of gift cards (products,
// purchase, verification, transactions) and quotes. Its specs register with
// Ginkgo at init; package suites imports it.
package gifts
