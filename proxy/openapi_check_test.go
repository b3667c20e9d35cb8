package proxy_test

import (
	"context"
	"testing"

	"github.com/merchant-harness/mph/openapi"
	"github.com/merchant-harness/mph/openapi/openapitest"
	"github.com/merchant-harness/mph/proxy"
)

// validateAgainstOpenAPI checks every recorded exchange against the
// generated OpenAPI 3.1 document with kin-openapi: each answer, and each
// request the server accepted.
func validateAgainstOpenAPI(t *testing.T, seen []proxy.Exchange) {
	t.Helper()
	ctx := context.Background()
	v, err := openapitest.New(ctx, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad, checked := 0, 0
	for _, ex := range seen {
		if ex.ResponseBody == nil {
			continue // over the cap: not recorded
		}
		checked++
		accepted := ex.Status >= 200 && ex.Status < 300
		if err := v.Exchange(ctx, ex, accepted); err != nil {
			bad++
			if bad <= 15 {
				t.Errorf("exchange #%d: %v", ex.Seq, err)
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d exchanges validated", checked)
	}
	t.Logf("OpenAPI: %d exchanges validated, %d mismatches", checked, bad)
}
