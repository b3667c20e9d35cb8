package sandbox

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/wording"
)

// The six error scenarios of the API document.
func TestDocumentScenarios(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	cust := h.customer(tok)
	t.Run("1 issuing above the vault balance", func(t *testing.T) {
		h.t = t
		h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":10000}`, cust)).
			wantError(400, "Insufficient vault balance: required 10001.00 USD (funding 10000.00 + issuance fee 1.00), available 10000.00 USD")
	})
	t.Run("2 no bearer, expired token", func(t *testing.T) {
		h.t = t
		h.api("GET", "/cards", "", nil).wantError(401, "bearer token")
		h.fake.Advance(900e9)
		h.api("GET", "/cards", tok, nil).wantError(401, "Bearer token expired")
	})
	t.Run("3 wrong credentials", func(t *testing.T) {
		h.t = t
		h.api("POST", "/auth/token", "", `{"merchantId":"mer_demo_alpha","secretKey":"sk_test_wrong"}`).wantError(401, "Invalid credentials")
		h.api("POST", "/auth/token", "", `{"merchantId":"mer_wrong","secretKey":"`+alphaTest+`"}`).wantError(401, "Invalid credentials")
	})
	t.Run("4 caller IP outside the whitelist", func(t *testing.T) {
		h.t = t
		h.api("POST", "/auth/token", "", `{"merchantId":"mer_demo_delta","secretKey":"`+deltaTest+`"}`).
			wantError(403, "IP address 127.0.0.1 is not allowed for this merchant account")
	})
	t.Run("5 unknown card", func(t *testing.T) {
		h.t = t
		h.api("GET", "/cards/crd_000", h.token(alpha, alphaTest), nil).wantError(404, "Virtual card not found")
	})
	t.Run("6 unknown gift order", func(t *testing.T) {
		h.t = t
		r := h.api("GET", "/gift-cards/verify/ref-404", h.token(alpha, alphaTest), nil).want(404)
		if string(r.body) != `{"statusCode":404,"message":"Gift card order with reference 'ref-404' not found","error":"Not Found"}` {
			t.Fatalf("gift 404: %s", r.body)
		}
	})
}

func TestBadInput(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	auth := "Authorization: Bearer " + tok
	ct := "Content-Type: application/json"
	base := "/v1/merchant"
	tests := []struct {
		name, method, path, body string
		hdr                      []string
		code                     int
		msg                      string
	}{
		{"malformed JSON", "POST", "/auth/token", `{"merchantId":`, []string{ct}, 400, wording.MalformedJSON},
		{"trailing garbage", "POST", "/auth/token", `{"a":1} x`, []string{ct}, 400, wording.MalformedJSON},
		{"array body", "POST", "/auth/token", `[1,2]`, []string{ct}, 400, wording.NotObject},
		{"string body", "POST", "/auth/token", `"hi"`, []string{ct}, 400, wording.NotObject},
		{"null body", "POST", "/auth/token", `null`, []string{ct}, 400, wording.NotObject},
		{"missing body", "POST", "/auth/token", ``, []string{ct}, 400, "merchantId should not be empty"},
		{"wrong content type", "POST", "/auth/token", `{"merchantId":"a","secretKey":"b"}`, []string{"Content-Type: text/plain"}, 400, wording.ContentType},
		{"no content type", "POST", "/auth/token", `{"merchantId":"a","secretKey":"b"}`, nil, 400, wording.ContentType},
		{"form body", "PATCH", "/cards/" + id + "/status", `status=FROZEN`, []string{auth, "Content-Type: application/x-www-form-urlencoded"}, 400, wording.ContentType},
		{"json with charset", "PATCH", "/cards/" + id + "/status", `{"status":"ACTIVE"}`, []string{auth, "Content-Type: application/json; charset=utf-8"}, 200, ""},
		{"body too large", "POST", "/auth/token", `{"merchantId":"` + strings.Repeat("a", 70000) + `"}`, []string{ct}, 413, "Payload Too Large"},
		{"huge number", "POST", "/cards/" + id + "/withdraw", `{"amount":` + strings.Repeat("9", 5000) + `}`, []string{auth, ct}, 400, "amount must not be greater than"},
		{"huge exponent", "POST", "/cards/" + id + "/withdraw", `{"amount":1e999999999}`, []string{auth, ct}, 400, "amount must not be greater than"},
		{"tiny exponent", "POST", "/cards/" + id + "/withdraw", `{"amount":1e-999999999}`, []string{auth, ct}, 400, "decimal places"},
		{"negative", "POST", "/cards/" + id + "/withdraw", `{"amount":-0.5}`, []string{auth, ct}, 400, "must not be less than 0.1"},
		{"object amount", "POST", "/cards/" + id + "/withdraw", `{"amount":{"v":1}}`, []string{auth, ct}, 400, "amount must be a number"},
		{"array amount", "POST", "/cards/" + id + "/withdraw", `{"amount":[1]}`, []string{auth, ct}, 400, "amount must be a number"},
		{"unknown enum", "PATCH", "/cards/" + id + "/status", `{"status":"DELETED"}`, []string{auth, ct}, 400, "status must be one of"},
		{"long string", "PATCH", "/cards/" + id + "/contact", `{"email":"` + strings.Repeat("a", 5000) + `@x.io"}`, []string{auth, ct}, 400, "shorter than or equal to"},
		{"invalid UTF-8", "PATCH", "/cards/" + id + "/contact", "{\"email\":\"\xff\xfe@x.io\"}", []string{auth, ct}, 200, ""}, // decoded with U+FFFD, like any JSON decoder
		{"duplicate keys", "PATCH", "/cards/" + id + "/status", `{"status":"X","status":"ACTIVE"}`, []string{auth, ct}, 200, ""},
		{"unknown field ignored", "PATCH", "/cards/" + id + "/status", `{"status":"ACTIVE","extra":[1,{}]}`, []string{auth, ct}, 200, ""},
		{"deep nesting", "POST", "/auth/token", `{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, []string{ct}, 400, wording.MalformedJSON},
		{"unknown route", "GET", "/nope", ``, []string{auth}, 404, "Cannot GET /v1/merchant/nope"},
		{"wrong method", "DELETE", "/cards/" + id, ``, []string{auth}, 404, "Cannot DELETE /v1/merchant/cards/" + id},
		{"POST on config", "POST", "/cards/config", ``, []string{auth}, 404, "Cannot POST /v1/merchant/cards/config"},
		{"trailing slash", "GET", "/cards/", ``, []string{auth}, 404, "Cannot GET"},
		{"too deep", "GET", "/cards/a/b/c/d", ``, []string{auth}, 404, "Cannot GET"},
		{"unknown route before auth", "GET", "/unknown", ``, nil, 404, "Cannot GET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			r := h.raw(tt.method, base+tt.path, tt.body, tt.hdr...)
			if tt.code == 200 {
				r.want(200)
				return
			}
			r.wantError(tt.code, tt.msg)
		})
	}
	h.t = t
	h.raw("GET", "/elsewhere", "").wantError(404, "Cannot GET /elsewhere")
	h.raw("GET", "/", "").wantError(404, "Cannot GET /")
}

func TestErrorEnvelopePath(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.raw("GET", "/v1/merchant/cards?status=ALL", "").wantError(401, wording.Bearer)
	if r.s("path") != "/v1/merchant/cards" {
		t.Fatalf("path must have no query string: %s", r.body)
	}
}

func TestAlternativeBasePath(t *testing.T) {
	h := newSbx(t, Options{BasePath: "/api/v1/merchant/"})
	r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}).want(200)
	if r.s("path") != "/api/v1/merchant/auth/token" {
		t.Fatalf("path: %s", r.body)
	}
	h.raw("POST", "/v1/merchant/auth/token", "").want(404)
	if r := h.raw("GET", "/_sandbox/capabilities", "").want(200); r.s("basePath") != "/api/v1/merchant" {
		t.Fatalf("capabilities: %s", r.body)
	}
	for _, bad := range []string{"/v2/merchant", "v1/merchant", "/_sandbox/v1/merchant"} {
		if _, err := New(Options{BasePath: bad}); err == nil {
			t.Errorf("base path %q accepted", bad)
		}
	}
}

// A chunked body (no Content-Length) over 64 KiB is cut off at the limit.
func TestChunkedBodyTooLarge(t *testing.T) {
	h := newSbx(t, Options{})
	req := httptest.NewRequest("POST", "/v1/merchant/auth/token", io.MultiReader(
		strings.NewReader(`{"merchantId":"`), strings.NewReader(strings.Repeat("x", 70000)), strings.NewReader(`"}`)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.s.ServeHTTP(w, req)
	if w.Code != 413 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
}

// A caller address that cannot be parsed is never whitelisted.
func TestUnparsableRemoteAddr(t *testing.T) {
	h := newSbx(t, Options{})
	for _, addr := range []string{"", "garbage", "203.0.113.10"} {
		h.ip = addr
		r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": delta, "secretKey": deltaTest})
		if addr == "203.0.113.10" { // an address without a port still counts
			r.want(200)
			continue
		}
		r.wantError(403, "IP address unknown is not allowed")
	}
}
