package sandbox

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// Benchmarks of the load driver's hot paths through the handler (no network),
// rate limits off. Run: go test -run '^$' -bench . -benchmem ./sandbox

func benchSbx(b *testing.B) (*sbx, string, string) {
	h := newSbx(b, Options{})
	tok := h.token(alpha, alphaTest)
	cust := h.customer(tok)
	var id string
	for range 20 {
		id = h.card(tok, cust, "10").s("data.id")
	}
	return h, tok, id
}

func runBench(b *testing.B, h *sbx, method, path, body string, hdr map[string]string) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			var req *http.Request
			if body != "" {
				req = httptest.NewRequest(method, path, strings.NewReader(body))
			} else {
				req = httptest.NewRequest(method, path, nil)
			}
			req.RemoteAddr = "127.0.0.1:1"
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.s.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
		}
	})
}

func BenchmarkToken(b *testing.B) {
	h := newSbx(b, Options{})
	runBench(b, h, "POST", "/v1/merchant/auth/token",
		`{"merchantId":"mer_demo_alpha","secretKey":"sk_test_alpha_7f3a9c2e51d84b06"}`,
		map[string]string{"Content-Type": "application/json"})
}

func BenchmarkListCards(b *testing.B) {
	h, tok, _ := benchSbx(b)
	runBench(b, h, "GET", "/v1/merchant/cards?limit=10", "", map[string]string{"Authorization": "Bearer " + tok})
}

func BenchmarkSecure(b *testing.B) {
	h, tok, id := benchSbx(b)
	runBench(b, h, "GET", "/v1/merchant/cards/"+id+"/secure", "", map[string]string{"Authorization": "Bearer " + tok})
}

// BenchmarkSecureRateLimited measures the cost of the per-merchant bucket.
func BenchmarkSecureRateLimited(b *testing.B) {
	h := newSbx(b, Options{RateLimits: map[string]ratelimit.Limit{"secure": {Rate: 1e9, Burst: 1e9}}})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	runBench(b, h, "GET", "/v1/merchant/cards/"+id+"/secure", "", map[string]string{"Authorization": "Bearer " + tok})
}
