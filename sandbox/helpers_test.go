package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/controls"
)

const (
	alpha     = "mer_demo_alpha"
	bravo     = "mer_demo_bravo"
	delta     = "mer_demo_delta"
	alphaTest = "sk_test_alpha_7f3a9c2e51d84b06"
	alphaLive = "sk_live_alpha_0b6d48e15c2a9f37"
	bravoTest = "sk_test_bravo_4c8e1a7d92f3b560"
	bravoLive = "sk_live_bravo_e29f5b03d7c1a846"
	deltaTest = "sk_test_delta_91b7e3c05a4f2d68"
	adminKey  = "sbx_admin_demo"
)

// t0 is the test clock's start: mid-month, mid-day UTC.
var t0 = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

// sbx drives a Server in-process through its http.Handler.
type sbx struct {
	t    testing.TB
	s    *Server
	fake *clock.Fake
	ip   string // caller address of requests
}

// newSbx builds a sandbox on a fake clock with rate limits off unless opts
// configures them.
func newSbx(t testing.TB, opts Options) *sbx {
	t.Helper()
	f := clock.NewFake(t0)
	if opts.Clock == nil {
		opts.Clock = f
	}
	if opts.RateLimits == nil {
		opts.DisableRateLimits = true
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &sbx{t: t, s: s, fake: f, ip: "127.0.0.1:40000"}
}

type resp struct {
	t    testing.TB
	code int
	hdr  http.Header
	body []byte
	v    any
}

// raw sends a request with a raw body and headers given as "Name: value".
func (h *sbx) raw(method, path, body string, headers ...string) *resp {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, rd)
	req.RemoteAddr = h.ip
	for _, hv := range headers {
		k, v, _ := strings.Cut(hv, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	w := httptest.NewRecorder()
	h.s.ServeHTTP(w, req)
	r := &resp{t: h.t, code: w.Code, hdr: w.Header(), body: w.Body.Bytes()}
	if len(r.body) > 0 {
		d := json.NewDecoder(bytes.NewReader(r.body))
		d.UseNumber()
		// Faulty sandboxes may answer anything; clean ones always answer JSON.
		if err := d.Decode(&r.v); err != nil && len(h.s.opts.Faults) == 0 {
			h.t.Fatalf("%s %s: answer is not JSON: %v: %s", method, path, err, r.body)
		}
	}
	if r.code >= 500 {
		h.t.Fatalf("%s %s: %d %s", method, path, r.code, r.body)
	}
	return r
}

func encode(body any) string {
	switch b := body.(type) {
	case nil:
		return ""
	case string:
		return b
	default:
		j, _ := json.Marshal(b)
		return string(j)
	}
}

// api calls the merchant API with a bearer token ("" for none).
func (h *sbx) api(method, path, token string, body any, headers ...string) *resp {
	h.t.Helper()
	if token != "" {
		headers = append(headers, "Authorization: Bearer "+token)
	}
	b := encode(body)
	if b != "" {
		headers = append([]string{"Content-Type: application/json"}, headers...)
	}
	return h.raw(method, h.s.base+path, b, headers...)
}

// ctl calls a test control with the admin key.
func (h *sbx) ctl(method, path string, body any) *resp {
	h.t.Helper()
	b := encode(body)
	hs := []string{"X-Sandbox-Admin-Key: " + adminKey}
	if b != "" {
		hs = append(hs, "Content-Type: application/json")
	}
	return h.raw(method, controls.Prefix+path, b, hs...)
}

func (h *sbx) token(merchant, key string) string {
	h.t.Helper()
	r := h.api("POST", "/auth/token", "", map[string]string{"merchantId": merchant, "secretKey": key})
	r.want(200)
	return r.s("data.accessToken")
}

var validCustomer = map[string]any{
	"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
	"phoneNumber": "08012345678", "phoneCountryCode": "+234", "dateOfBirth": "1990-01-31",
	"idType": "passport", "idNumber": "A12345678", "address": "1 Main St",
	"city": "Lagos", "state": "LA", "postalCode": "100001", "country": "NGA",
}

func (h *sbx) customer(tok string) string {
	h.t.Helper()
	return h.api("POST", "/cards/customers", tok, validCustomer).want(201).s("data.customerId")
}

// card issues a card funded with amount (a JSON number literal).
func (h *sbx) card(tok, cust, amount string, extra ...string) *resp {
	h.t.Helper()
	body := fmt.Sprintf(`{"customerId":%q,"nameOnCard":"Ada Lovelace","amount":%s%s}`, cust, amount, strings.Join(extra, ""))
	return h.api("POST", "/cards", tok, body).want(201)
}

func (r *resp) want(code int) *resp {
	r.t.Helper()
	if r.code != code {
		r.t.Fatalf("status %d, want %d: %s", r.code, code, r.body)
	}
	return r
}

// get walks a dotted path ("data.card.id", "data.0.id") through the answer.
func (r *resp) get(path string) any {
	r.t.Helper()
	cur := r.v
	if path == "" {
		return cur
	}
	for _, k := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[k]
			if !ok {
				r.t.Fatalf("no %q in %s", path, r.body)
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(c) {
				r.t.Fatalf("no %q in %s", path, r.body)
			}
			cur = c[i]
		default:
			r.t.Fatalf("no %q in %s", path, r.body)
		}
	}
	return cur
}

func (r *resp) has(path string) bool {
	cur := r.v
	for _, k := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		if cur, ok = m[k]; !ok {
			return false
		}
	}
	return true
}

func (r *resp) s(path string) string {
	r.t.Helper()
	v, ok := r.get(path).(string)
	if !ok {
		r.t.Fatalf("%s is not a string in %s", path, r.body)
	}
	return v
}

// num returns a number field in its JSON text, e.g. "25.50".
func (r *resp) num(path string) string {
	r.t.Helper()
	v, ok := r.get(path).(json.Number)
	if !ok {
		r.t.Fatalf("%s is not a number in %s", path, r.body)
	}
	return v.String()
}

func (r *resp) list(path string) []any {
	r.t.Helper()
	v, ok := r.get(path).([]any)
	if !ok {
		r.t.Fatalf("%s is not an array in %s", path, r.body)
	}
	return v
}

// wantError checks the error envelope and that message contains msg (for an
// array message: that some element does).
func (r *resp) wantError(code int, msg string) *resp {
	r.t.Helper()
	r.want(code)
	for _, k := range []string{"status", "statusCode", "message", "error", "timestamp", "path"} {
		if !r.has(k) {
			r.t.Fatalf("error envelope lacks %q: %s", k, r.body)
		}
	}
	if r.s("status") != "error" || r.num("statusCode") != fmt.Sprint(code) || r.s("error") != http.StatusText(code) {
		r.t.Fatalf("bad error envelope: %s", r.body)
	}
	switch m := r.get("message").(type) {
	case string:
		if !strings.Contains(m, msg) {
			r.t.Fatalf("message %q lacks %q", m, msg)
		}
	case []any:
		for _, e := range m {
			if s, _ := e.(string); strings.Contains(s, msg) {
				return r
			}
		}
		r.t.Fatalf("message %v lacks %q", m, msg)
	default:
		r.t.Fatalf("message is neither string nor array: %s", r.body)
	}
	return r
}

// wantArrayMessage asserts a validation failure (400 with an array message).
func (r *resp) wantValidation(msg string) *resp {
	r.t.Helper()
	r.wantError(400, msg)
	if _, ok := r.get("message").([]any); !ok {
		r.t.Fatalf("validation message is not an array: %s", r.body)
	}
	return r
}
