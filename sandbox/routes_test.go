package sandbox

import (
	"testing"

	"github.com/merchant-harness/mph/sandbox/wording"
)

// Routing keeps the API's own answers where http.ServeMux would differ:
// no 405, no redirect of unclean paths, HEAD is not GET, and identifiers
// are matched decoded, one segment each.
func TestRoutingEdges(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	auth := "Authorization: Bearer " + tok
	cases := []struct {
		name, method, path string
		code               int
		msg                string
	}{
		{"HEAD on a GET route", "HEAD", "/v1/merchant/cards", 404, ""},
		{"doubled slash", "GET", "/v1/merchant/cards//secure", 404, "Cannot GET /v1/merchant/cards//secure"},
		{"dot segment is an identifier", "GET", "/v1/merchant/cards/./secure", 404, wording.CardNotFound},
		{"dot-dot segment is an identifier", "GET", "/v1/merchant/cards/..", 404, wording.CardNotFound},
		{"encoded slash splits the identifier", "GET", "/v1/merchant/cards/a%2Fb/secure", 404, "Cannot GET /v1/merchant/cards/a/b/secure"},
		{"base path alone", "GET", "/v1/merchant", 404, "Cannot GET /v1/merchant"},
		{"wrong method on a control", "POST", "/_sandbox/latency", 404, "Cannot POST /_sandbox/latency"},
		{"controls prefix alone", "GET", "/_sandbox", 404, "Cannot GET /_sandbox"},
		{"control with a trailing slash", "GET", "/_sandbox/clock/", 404, "Cannot GET /_sandbox/clock/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := h.raw(c.method, c.path, "", auth, "X-Sandbox-Admin-Key: "+DefaultAdminKey)
			if c.method == "HEAD" {
				if r.code != c.code {
					t.Fatalf("%s %s: %d", c.method, c.path, r.code)
				}
				return
			}
			r.wantError(c.code, c.msg)
		})
	}
	// A known route with a wildcard reaches its handler with the identifier.
	id := h.card(tok, h.customer(tok), "5", `,"reference":"route.ref"`).s("data.id")
	h.api("GET", "/cards/route.ref", tok, nil).want(200)
	h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
	h.ctl("GET", "/merchants/"+alpha, nil).want(200)
}
