// Package framework is the runner of the conformance specs: how a spec in
// package suites is declared and run, apart from the specs themselves (as
// Kubernetes keeps test/e2e/framework apart from its e2e specs, and Gateway
// API keeps conformance/utils apart from conformance/tests), and apart from
// what specs assert with (package expect), their test data and money
// (package fixtures) and the webhook receiver (package webhookrx), which
// import this package, never the reverse.
//
// It provides:
//   - declarations: ConformanceIt, Reqs, SpecID, Needs, the frozen Tags and
//     the capabilities a spec can need (declare.go);
//   - client access: API, APIAs, Anonymous, Controls, Profile, Cfg, set up
//     once per process from the resolved target (harness.go), and the
//     capabilities the target offers (capabilities.go);
//   - the LIVE-write guard (live_guard.go);
//   - the hooks through which a room built on it takes part in the run
//     (hooks.go): package fixtures observes the money requests at the
//     transport and sweeps back in the teardown;
//   - Gomega's failure formatting of decoded JSON (gomega_format.go);
//   - the run: Preview, Run, the suite-level Ginkgo nodes (registered once,
//     from this package's init) and the reports they write (run.go), and the
//     coverage columns (coverage_columns.go).
//
// Specs dot-import this package, as they dot-import Ginkgo and Gomega, so a
// spec reads as the rule it checks (ConformanceIt, Must(API().Get(...)),
// ExpectEnvelopeA) rather than as plumbing. Its exported names therefore must
// not collide with Ginkgo's, Gomega's or package expect's.
//
// Its state is the runner's, all in one value (harness.go's h): the target
// handed in by Run (or resolved by process 1 under go test and ginkgo), the
// clients, the declarations, the run and its reports, the hooks.
//
// The specs register through package suites' init: a program that runs
// them imports both, the suites package for its side effect.
package framework
