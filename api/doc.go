// Package api is the harness's vocabulary of the Merchant Payments API v1:
// the endpoint table (the document's 17 endpoints plus card issuance) and the
// target profile, every choice the document leaves "not shown", with its
// defaults (profile.default.yaml). It is a leaf: suites, load scenarios,
// proxy, OpenAPI export and discovery derive from it; the reference sandbox
// keeps its own routes on purpose (the reference must not share the
// checker's tables).
package api
