// Package suites holds the conformance specs of the Merchant Payments API
// v1, one file per API area. The specs register themselves with Ginkgo when
// the package is initialised; the framework they are written with
// (declarations, fixtures, assertions, client access, the run and its
// reports) is package suites/framework, which they dot-import.
//
// `go test ./suites`, `ginkgo [-p] ./suites` and `mph conform` run the same
// tree; DEVELOPING.md says how to write a spec.
package suites
