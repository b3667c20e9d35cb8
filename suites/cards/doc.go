// Package cards holds the conformance specs of the virtual cards and their
// customers: issuance, listing, a card by id or reference, the secure
// details, status changes, contact details, addressing, the configuration
// and customer registration. Its specs register with Ginkgo at init;
// package suites imports it.
package cards
