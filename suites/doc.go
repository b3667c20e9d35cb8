// Package suites is the conformance suite of the Merchant Payments API v1:
// importing it registers every spec with Ginkgo, each exactly once, through
// the rooms it imports (rooms.go), one per API area: access, cards, funds,
// gifts and the cross-cutting rules (cross), with the helpers they share in
// specsupport. It also holds the committed spec inventory (inventory.yaml).
// What the specs are written with (declarations, the run and its reports)
// is package suites/framework, which they dot-import.
//
// `go test ./suites`, `ginkgo [-p] ./suites` and `mph conform` run the same
// tree; DEVELOPING.md says how to write a spec.
package suites
