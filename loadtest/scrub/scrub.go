// Package scrub makes vegeta results safe to keep on disk: no response bodies
// from secure reveal or any successful answer (tokens, card data), only
// rate-limit headers kept, card ids in URLs and error strings shortened with
// redact.ID, and anything secret-looking left in text masked by redact.
package scrub

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/merchant-harness/mph/redact"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// MaxBody is the most of a (non-2xx, non-secure) response body kept.
const MaxBody = 1024

// keptHeaders are the only response headers kept in results.
var keptHeaders = []string{
	"Retry-After", "Ratelimit", "Ratelimit-Policy", "Ratelimit-Limit", "Ratelimit-Remaining", "Ratelimit-Reset",
	"X-Ratelimit-Limit", "X-Ratelimit-Remaining", "X-Ratelimit-Reset", "Content-Type",
}

// idSegment matches the path segment after /cards/ or /gift-cards/verify/ or
// /gift-cards/transactions/ that names a resource (not the fixed sub-paths).
var idSegment = regexp.MustCompile(`(/cards/|/gift-cards/verify/|/gift-cards/transactions/)([^/?#\s"]+)`)

var fixedCardPaths = map[string]bool{"customers": true, "config": true}

// URL shortens resource ids in a URL or any text containing one.
func URL(s string) string {
	if !strings.Contains(s, "/cards/") {
		return s
	}
	return idSegment.ReplaceAllStringFunc(s, func(m string) string {
		sub := idSegment.FindStringSubmatch(m)
		if fixedCardPaths[sub[2]] || strings.Contains(sub[2], "…") || strings.HasSuffix(sub[2], redact.Mask) {
			return m
		}
		return sub[1] + redact.ID(sub[2])
	})
}

// IsSecure reports whether a URL is a secure-reveal call.
func IsSecure(url string) bool {
	u := url
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return strings.HasSuffix(u, "/secure")
}

// Result scrubs r in place.
func Result(r *vegeta.Result) {
	secure := IsSecure(r.URL)
	r.URL = URL(redact.Safe(r.URL))
	result(r, secure)
}

// result scrubs the body, headers and error of r (its URL is done; secure
// says whether it was a secure-reveal call).
func result(r *vegeta.Result, secure bool) {
	if secure || (r.Code >= 200 && r.Code < 300) || r.Code == 0 {
		r.Body = nil
	} else if len(r.Body) > 0 {
		// Redact the whole body first: a cut would split a secret (a JWT, a
		// key, a voucher code) into a part no pattern recognises.
		r.Body = Cut(redact.JSON(r.Body), MaxBody)
	}
	if r.Headers != nil {
		r.Headers = Headers(r.Headers)
	}
	// `vegeta report` prints URLs and errors on a terminal: escaped too.
	if r.Error != "" {
		r.Error = URL(redact.Safe(r.Error))
	}
}

// Cut keeps at most n bytes of an already redacted b, on a UTF-8 boundary,
// and says how much was cut.
func Cut(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	end := n
	for end > 0 && !utf8.RuneStart(b[end]) {
		end--
	}
	out := append([]byte{}, b[:end]...)
	return append(out, fmt.Sprintf("…[%d bytes cut]", len(b)-end)...)
}

// Headers keeps only rate-limit related headers and Content-Type, redacted
// (nil when none remain).
func Headers(h http.Header) http.Header {
	var out http.Header
	for _, k := range keptHeaders {
		if v, ok := h[k]; ok {
			if out == nil {
				out = make(http.Header, 4)
			}
			cp := make([]string, len(v))
			for i, x := range v {
				cp[i] = redact.Safe(x)
			}
			out[k] = cp
		}
	}
	return out
}
