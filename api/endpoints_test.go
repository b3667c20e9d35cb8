package api

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestEndpointTable checks the table against itself: unique slugs of the
// spec ID alphabet, path parameters as the template names them, a body
// exactly on the calls that take one, a sample valid for the members it
// declares, and the carried things that rules need.
func TestEndpointTable(t *testing.T) {
	p := DefaultProfile()
	eps := Endpoints(p)
	if len(eps) != 18 {
		t.Fatalf("%d endpoints, want the document's 17 and card issuance", len(eps))
	}
	slug := regexp.MustCompile(`^[a-z][a-z0-9-]{1,19}$`)
	seen := map[string]bool{}
	for _, e := range eps {
		if !slug.MatchString(e.Slug) || seen[e.Slug] {
			t.Errorf("%s: slug %q is not unique or not of the spec ID alphabet (lower case, digits, dashes, at most 20)", e.Key(), e.Slug)
		}
		seen[e.Slug] = true
		var names []string
		for _, s := range Segments(e.Template) {
			if strings.HasPrefix(s, "{") {
				names = append(names, strings.Trim(s, "{}"))
			}
		}
		if len(names) != len(e.Params) {
			t.Errorf("%s: the template names %v, Params %v", e.Key(), names, e.Params)
		}
		for i := range min(len(names), len(e.Params)) {
			if names[i] != e.Params[i].Name {
				t.Errorf("%s: parameter %d is %s in the template, %s in Params", e.Key(), i, names[i], e.Params[i].Name)
			}
		}
		if (len(e.Params) > 0) != (e.NotFound != NotFoundNone) {
			t.Errorf("%s: a 404 form exactly on the endpoints with a path parameter", e.Key())
		}
		if takesBody := e.Method != "GET"; takesBody != (e.Body != nil) {
			t.Errorf("%s: a body exactly on the calls that are not GET", e.Key())
		}
		if e.Has(CarriesGiftOrder) != (e.OrderAt != nil) {
			t.Errorf("%s: OrderAt exactly on the endpoints carrying a gift order", e.Key())
		}
		checkSample(t, p, e)
	}
}

func checkSample(t *testing.T, p *Profile, e Endpoint) {
	t.Helper()
	if e.Body == nil {
		return
	}
	if e.Body.Sample == nil || len(e.Body.Fields) == 0 || e.Body.Cite == "" {
		t.Errorf("%s: a body needs its members, a sample and its citation", e.Key())
		return
	}
	in := SampleInput{Profile: p, Ref: "mph-ref", CustomerID: "cus_1", Customer: map[string]any{"firstName": "A", "lastName": "B", "email": "e", "phoneNumber": "1"}, MerchantID: "m", SecretKey: "k"}
	s := e.Body.Sample(in)
	for _, f := range e.Body.Fields {
		if f.Cite == "" {
			t.Errorf("%s: member %s has no citation", e.Key(), f.Name)
		}
		if _, ok := s[f.Wire(p)]; f.Required && !ok {
			t.Errorf("%s: the sample lacks the required member %s", e.Key(), f.Wire(p))
		}
	}
	if e.Body.AllOptional != (len(e.Body.Required()) == 0) {
		t.Errorf("%s: AllOptional exactly when no member is required", e.Key())
	}
}

// TestEndpointCitationsAreTheDocument checks that every citation of the
// table is the API document's words (whitespace normalised).
func TestEndpointCitationsAreTheDocument(t *testing.T) {
	b, err := os.ReadFile("../../shared/merchant-payments-api.md")
	if err != nil {
		t.Skip("the API document is not next to the checkout")
	}
	doc := normalise(string(b))
	for _, e := range Endpoints(nil) {
		if e.Body == nil {
			continue
		}
		cites := []string{e.Body.Cite}
		for _, f := range e.Body.Fields {
			cites = append(cites, f.Cite)
		}
		for _, c := range cites {
			if !strings.Contains(doc, normalise(c)) {
				t.Errorf("%s: %q is not the document's words", e.Key(), c)
			}
		}
	}
}

func normalise(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestEndpointPath(t *testing.T) {
	e, ok := EndpointBySlug(nil, "gift-verify")
	if !ok {
		t.Fatal("no gift-verify")
	}
	if got := e.Path("a b/c"); got != "/gift-cards/verify/a%20b%2Fc" {
		t.Fatalf("Path = %s", got)
	}
	if e, _ := EndpointBySlug(nil, "config"); e.Path() != "/cards/config" {
		t.Fatalf("config Path = %s", e.Path())
	}
}
