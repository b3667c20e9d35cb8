// Package specsupport holds the helpers the spec rooms share (access,
// cards, funds, gifts, cross): card paths and endpoints, refusals and the
// error envelope's members, transactions, limits, the clock, tokens,
// withdrawals, gift orders and their references, the scenarios' messages.
// The rooms dot-import it like the framework and the assertions. It
// declares no spec.
package specsupport
