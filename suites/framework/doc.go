// Package framework is the conformance spec framework: what a spec in
// package suites is written with, apart from the specs themselves (as
// Kubernetes keeps test/e2e/framework apart from its e2e specs, and Gateway
// API keeps conformance/utils apart from conformance/tests).
//
// It provides:
//   - declarations: ConformanceIt, Reqs, SpecID, Needs, the frozen Tags and
//     the capabilities a spec can need (declare.go);
//   - client access: API, APIAs, Anonymous, Controls, Profile, Cfg, set up
//     once per process from the resolved target (harness.go);
//   - the LIVE-write guard (live_guard.go), and the hooks through which the
//     rooms built on it take part in the run (hooks.go): package expect
//     (the assertions), package fixtures (test data, the spend books, the
//     teardown) and package webhookrx (the webhook receiver) import this
//     package, never the reverse;
//   - Gomega's failure formatting of decoded JSON (gomega_format.go);
//   - the run: Preview, Run, the suite-level Ginkgo nodes (registered once,
//     from this package's init) and the reports they write (run.go), and the
//     coverage columns (coverage_columns.go).
//
// Specs dot-import this package, as they dot-import Ginkgo and Gomega, so a
// spec reads as the rule it checks (ConformanceIt, Must(API().Get(...)),
// ExpectEnvelope) rather than as plumbing. Its exported names therefore must
// not collide with Ginkgo's or Gomega's.
//
// The specs register through package suites' init: a program that runs
// them imports both, the suites package for its side effect.
package framework
