// Package expect is what the specs assert with, beside Gomega: envelopes and
// schemas (assert.go, schema_rules.go), errors and refusals (refusals.go),
// the meanings of messages (messages.go), members whose place is not shown
// (members.go), the amounts the profile's readings allow (readings.go),
// bounded waits (waits.go), the PCI rule on answers (card_credentials.go)
// and exact Money. Every assertion cites the document's words or the
// profile key that sets it. The specs dot-import it, as they dot-import
// Gomega, so its exported names must not collide with Gomega's, Ginkgo's or
// the framework's. It imports the framework, never the reverse.
package expect
