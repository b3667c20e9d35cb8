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
	tok := v.Doc.Paths.Find("/auth/token").Post
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
	issue := doc.Paths["/cards/issue"]["post"]
	if issue == nil || issue[openapi.NotShown] != true {
		t.Fatalf("issuance not at the profile's path or not marked: %v", issue)
	}
	params, _ := doc.Paths["/gift-cards/quote"]["get"]["parameters"].([]any)
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
