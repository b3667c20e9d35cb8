package expect

import "testing"

// The media types and echoed paths the document allows pass; what it does
// not allow fails.
func TestIsJSONContentType(t *testing.T) {
	for ct, ok := range map[string]bool{
		"application/json":                  true,
		"Application/JSON; charset=utf-8":   true,
		"application/problem+json":          true,
		"application/vnd.mph.v1+json; q=1":  true,
		"application/+json":                 false,
		"text/json":                         false,
		"text/plain":                        false,
		"application/jsonp":                 false,
		"application/json-seq":              false,
		"":                                  false,
		"application/x-www-form-urlencoded": false,
	} {
		if IsJSONContentType(ct) != ok {
			t.Errorf("IsJSONContentType(%q) = %v", ct, !ok)
		}
	}
}

func TestEchoNamesPath(t *testing.T) {
	const want = "/cards/crd_1/status"
	for _, c := range []struct {
		echo            string
		lenient, strict bool
	}{
		{"/v1/merchant/cards/crd_1/status", true, true},
		{"/api/v1/merchant/cards/crd_1/status", true, true},
		{"/payments/v1/merchant/cards/crd_1/status", true, true},
		{"/v1/merchant/cards/crd_1/status?x=1", true, false},
		{"/cards/crd_1/status", true, false},
		{"/gateway/cards/crd_1/status", true, false},
		{"/v1/merchant/cards/%63rd_1/status", true, true},
		{"/v1/merchant/cards/crd_2/status", false, false},
		{"/v1/merchant/cards/:id/status", false, false},
		{"/v1/merchant/cards/crd_1", false, false},
		{"cards/crd_1/statu", false, false},
		{"", false, false},
	} {
		if got := EchoNamesPath(c.echo, want, false); got != c.lenient {
			t.Errorf("lenient EchoNamesPath(%q) = %v", c.echo, got)
		}
		if got := EchoNamesPath(c.echo, want, true); got != c.strict {
			t.Errorf("strict EchoNamesPath(%q) = %v", c.echo, got)
		}
	}
}
