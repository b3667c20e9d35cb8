package api

import (
	"net/http"
	"strings"
)

// reasonAliases are the reason phrases the HTTP standards have given a status
// besides Go's http.StatusText: RFC 9110 renamed several (413 Content Too
// Large, 422 Unprocessable Content), RFC 7231 and RFC 2616 had others, and
// servers emit all of them. The document's error field is "reason phrase,
// e.g. Bad Request, Unauthorized, Forbidden, Not Found": a phrase any of those
// standards gives the status is one.
var reasonAliases = map[int][]string{
	http.StatusFound:                        {"Moved Temporarily"}, // RFC 1945
	http.StatusRequestTimeout:               {"Request Time-out"},  // RFC 2068
	http.StatusRequestEntityTooLarge:        {"Payload Too Large", "Content Too Large", "Request Entity Too Large"},
	http.StatusRequestURITooLong:            {"URI Too Long", "Request-URI Too Long", "Request-URI Too Large"},
	http.StatusRequestedRangeNotSatisfiable: {"Range Not Satisfiable", "Requested range not satisfiable"},
	http.StatusUnprocessableEntity:          {"Unprocessable Content", "Unprocessable Entity"},
	http.StatusMisdirectedRequest:           {"Misdirected Request"},
	http.StatusGatewayTimeout:               {"Gateway Time-out"},
	http.StatusHTTPVersionNotSupported:      {"HTTP Version not supported"},
	http.StatusProxyAuthRequired:            {"Proxy Authentication Required"},
	http.StatusExpectationFailed:            {"Expectation Failed"},
	http.StatusTeapot:                       {"I'm a teapot", "I'm a Teapot", "Unused"},
	http.StatusTooManyRequests:              {"Too Many Requests"},
}

// ReasonPhrases returns the phrases the HTTP standards give status, Go's
// first ("" for a status no standard names).
func ReasonPhrases(status int) []string {
	out := []string{}
	if s := http.StatusText(status); s != "" {
		out = append(out, s)
	}
	return append(out, reasonAliases[status]...)
}

// IsReasonPhrase reports whether phrase is a reason phrase the HTTP standards
// give status, compared without regard to case or runs of white space
// (RFC 9110 §15.1: the phrase is informational; clients ignore it).
func IsReasonPhrase(status int, phrase string) bool {
	got := strings.Join(strings.Fields(phrase), " ")
	for _, p := range ReasonPhrases(status) {
		if strings.EqualFold(got, p) {
			return true
		}
	}
	return false
}
