// Package access holds the conformance specs of what every call meets
// before and around its area: authentication, the error scenarios and the
// error envelope, rate limits, malformed requests, tenant isolation and the
// webhook simulations. Its specs register with Ginkgo at init; package
// suites imports it.
package access
