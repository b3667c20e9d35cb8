// Package openapitest validates recorded exchanges against the generated
// OpenAPI document with kin-openapi (github.com/getkin/kin-openapi), an
// independent, maintained OpenAPI 3.1 implementation. It is used by tests
// only, so the mph binary does not link kin-openapi.
package openapitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/merchant-harness/mph/openapi"
	"github.com/merchant-harness/mph/proxy"
)

// Validator holds a loaded, validated document and its router.
type Validator struct {
	Doc    *openapi3.T
	router routers.Router
	server string // the origin the exchanges are sent to
}

// server is the merchant root the document is generated for: servers[0]
// is its origin, and every path begins with /v1/merchant, as every
// exchange's path does.
const server = "http://mph.test/v1/merchant"

// New generates the document, loads it with kin-openapi's loader and
// validates it as an OpenAPI 3.1 document.
func New(ctx context.Context, o openapi.Options) (*Validator, error) {
	o.Server = server
	raw, err := openapi.JSON(o)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("document is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("validate document: %w", err)
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("router: %w", err)
	}
	origin, _, err := openapi.SplitServer(server)
	if err != nil {
		return nil, err
	}
	return &Validator{Doc: doc, router: r, server: origin}, nil
}

// Exchange validates one recorded exchange: the answer always, the request
// too when checkRequest (a request the server accepted should match the
// document's parameters and body).
func (v *Validator) Exchange(ctx context.Context, ex proxy.Exchange, checkRequest bool) error {
	u, _ := url.Parse(v.server)
	rel := ex.Path
	u.Path = ex.Path
	u.RawQuery = ex.RawQuery
	req, err := http.NewRequestWithContext(ctx, ex.Method, u.String(), bytes.NewReader(ex.RequestBody))
	if err != nil {
		return err
	}
	req.Header = ex.RequestHeader.Clone()
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("route %s %s: %w", ex.Method, rel, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if checkRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			return fmt.Errorf("request %s %s: %w", ex.Method, rel, err)
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 ex.Status,
		Header:                 ex.ResponseHeader,
		Body:                   io.NopCloser(bytes.NewReader(ex.ResponseBody)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("response %d to %s %s: %w", ex.Status, ex.Method, rel, err)
	}
	return nil
}
