package openapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/openapi"
	"github.com/merchant-harness/mph/openapi/openapitest"
	"github.com/merchant-harness/mph/proxy"
)

// TestDocumentLoadsAsOpenAPI31: kin-openapi loads and validates it.
func TestDocumentLoadsAsOpenAPI31(t *testing.T) {
	v, err := openapitest.New(context.Background(), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := v.Doc.Paths.Len(); n != 16 {
		t.Errorf("%d paths, want 16 (17 endpoints and issuance, /cards and /cards/customers shared)", n)
	}
	sec := v.Doc.Components.SecuritySchemes["bearerAuth"]
	if sec == nil || sec.Value.Scheme != "bearer" {
		t.Errorf("bearer scheme missing")
	}
	tok := v.Doc.Paths.Find("/v1/merchant/auth/token").Post
	if tok.Security == nil || len(*tok.Security) != 0 {
		t.Errorf("token exchange must need no security")
	}
	ra := v.Doc.Components.Responses["TooManyRequests"].Value.Headers["Retry-After"]
	if ra == nil || ra.Value.Extensions[openapi.NotShown] != true {
		t.Errorf("429 Retry-After missing or not marked not shown")
	}
}

// TestYAMLLoadsToo: the YAML rendering is the same document.
func TestYAMLLoadsToo(t *testing.T) {
	y, err := openapi.YAML(openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(y)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil || doc.OpenAPI != openapi.Version || doc.Paths.Len() != 16 {
		t.Fatalf("yaml document: %v, version %q, %d paths", err, doc.OpenAPI, doc.Paths.Len())
	}
}

// TestNotShownMarksFollowTheProfile: profile-driven names are marked, and
// another profile changes them.
func TestNotShownMarksFollowTheProfile(t *testing.T) {
	p := api.DefaultProfile()
	p.Issuance.Path = "/cards/issue"
	p.GiftCards.Quote.Params = map[string]string{"sku": "{productCode}"}
	raw, err := openapi.JSON(openapi.Options{Profile: p})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	issue := doc.Paths["/v1/merchant/cards/issue"]["post"]
	if issue == nil || issue[openapi.NotShown] != true {
		t.Fatalf("issuance not at the profile's path or not marked: %v", issue)
	}
	params, _ := doc.Paths["/v1/merchant/gift-cards/quote"]["get"]["parameters"].([]any)
	found := false
	for _, q := range params {
		m := q.(map[string]any)
		if m["name"] == "sku" && m[openapi.NotShown] == true {
			found = true
		}
	}
	if !found {
		t.Errorf("profile quote parameter not marked: %v", params)
	}
	if strings.Contains(string(raw), `"$id"`) || strings.Contains(string(raw), `.json"`) {
		t.Errorf("schema files' $id or file $refs leaked into the document")
	}
}

// TestDocumentRejectsWrongAnswers: the document is strict where the
// API document is; a validator that accepts anything proves nothing.
func TestDocumentRejectsWrongAnswers(t *testing.T) {
	ctx := context.Background()
	v, err := openapitest.New(ctx, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"status":"success","data":{"environment":"TEST","creationFee":1,"fundFee":1,"withdrawalFee":0.05,"minFunding":1,"exchangeRate":1550,"vaultBalance":10},"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/config"}`
	cases := []struct {
		name, body string
		status     int
		wantErr    bool
	}{
		{"valid config", ok, 200, false},
		{"status ok instead of success", strings.Replace(ok, `"success"`, `"ok"`, 1), 200, true},
		{"timestamp not ISO 8601", strings.Replace(ok, "2026-01-01T00:00:00Z", "yesterday", 1), 200, true},
		{"minFunding not 1", strings.Replace(ok, `"minFunding":1`, `"minFunding":2`, 1), 200, true},
		{"error without statusCode", `{"status":"error","message":"x","error":"Not Found","timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards/config"}`, 404, true},
		{"error with the three members the document shows", `{"statusCode":404,"message":"x","error":"Not Found"}`, 404, false},
		{"undocumented status", ok, 418, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ex := proxy.Exchange{Method: "GET", Path: "/v1/merchant/cards/config", Status: tc.status,
				RequestHeader:  map[string][]string{"Authorization": {"Bearer x"}},
				ResponseHeader: map[string][]string{"Content-Type": {"application/json"}},
				ResponseBody:   []byte(tc.body)}
			err := v.Exchange(ctx, ex, false)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
		})
	}
}

// TestServerAndPathsTakenAsTheyAre: servers[0] is the target's origin and
// every path begins with its merchant root, so a tool joining the two
// (Prism ignores a server's path) reaches the endpoint; another base path
// moves every path.
func TestServerAndPathsTakenAsTheyAre(t *testing.T) {
	for server, root := range map[string]string{
		"": "/v1/merchant",
		"https://api.provider.test/api/v1/merchant/": "/api/v1/merchant",
	} {
		raw, err := openapi.JSON(openapi.Options{Server: server})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Servers []struct{ URL string }
			Paths   map[string]any
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		wantOrigin := "http://127.0.0.1:8080"
		if server != "" {
			wantOrigin = "https://api.provider.test"
		}
		if len(doc.Servers) != 1 || doc.Servers[0].URL != wantOrigin {
			t.Errorf("server %q: servers %+v, want the origin %s", server, doc.Servers, wantOrigin)
		}
		for p := range doc.Paths {
			if !strings.HasPrefix(p, root+"/") {
				t.Errorf("server %q: path %s does not begin with the merchant root %s", server, p, root)
			}
		}
		if doc.Paths[root+"/auth/token"] == nil {
			t.Errorf("server %q: no %s/auth/token", server, root)
		}
	}
	for _, bad := range []string{"127.0.0.1:8080/v1/merchant", "https://u:p@h/v1/merchant", "https://h/v1/merchant?x=1"} {
		if _, err := openapi.JSON(openapi.Options{Server: bad}); err == nil {
			t.Errorf("server %q accepted", bad)
		}
	}
}

// TestEveryOperationNamed: every operation, the webhook's included, has an
// operationId of its own, and the document names a licence.
func TestEveryOperationNamed(t *testing.T) {
	raw, err := openapi.JSON(openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Info struct {
			License struct{ Name, Identifier string }
		}
		Paths    map[string]map[string]map[string]any
		Webhooks map[string]map[string]map[string]any
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Info.License.Name == "" || doc.Info.License.Identifier != openapi.DefaultLicense {
		t.Errorf("licence %+v", doc.Info.License)
	}
	seen := map[string]string{}
	for _, items := range []map[string]map[string]map[string]any{doc.Paths, doc.Webhooks} {
		for path, ops := range items {
			for method, op := range ops {
				id, _ := op["operationId"].(string)
				if id == "" || seen[id] != "" {
					t.Errorf("%s %s: operationId %q (also %s)", method, path, id, seen[id])
				}
				seen[id] = method + " " + path
			}
		}
	}
	if len(seen) != 19 {
		t.Errorf("%d operations named, want 18 and the webhook", len(seen))
	}
}

// TestRequiredMembersDeclared: a schema naming a required member its
// properties leave out gets it declared as {} (any value), so its meaning
// stays.
func TestRequiredMembersDeclared(t *testing.T) {
	raw, err := openapi.JSON(openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Not struct {
					Required   []string
					Properties map[string]map[string]any
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	not := doc.Components.Schemas["gift-order"].Not
	if len(not.Required) != 1 || not.Properties["data"] == nil || len(not.Properties["data"]) != 0 {
		t.Fatalf("gift-order's not: %+v", not)
	}
}
