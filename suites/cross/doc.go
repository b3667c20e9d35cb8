// Package cross holds the cross-cutting rules: one table of rules (access,
// authentication, bodies, answers, open points), each declared as a cell per
// endpoint it applies to; Rules gives the table to the coverage grid. Its
// specs register with Ginkgo at init; package suites imports it.
package cross
