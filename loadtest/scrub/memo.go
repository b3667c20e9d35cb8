package scrub

import (
	"net/http"

	"github.com/merchant-harness/mph/redact"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// maxMemo bounds each of a Memo's tables; past it, results are scrubbed
// without memory.
const maxMemo = 1024

// Memo scrubs like Result, remembering the scrubbed form of URLs and of
// kept header sets already seen: a run sends few distinct URLs and gets few
// distinct kept headers (often Content-Type alone), and scrubbing them anew
// for every result was a large part of writing results. Results scrubbed
// by one Memo may share one header map: read it, never change it. Not safe
// for concurrent use.
type Memo struct {
	urls    map[string]string
	headers map[string]http.Header
	key     []byte
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo {
	return &Memo{urls: map[string]string{}, headers: map[string]http.Header{}}
}

// Result scrubs r in place, as Result does.
func (m *Memo) Result(r *vegeta.Result) {
	secure := IsSecure(r.URL)
	u, ok := m.urls[r.URL]
	if !ok {
		u = URL(redact.Safe(r.URL))
		if len(m.urls) < maxMemo {
			m.urls[r.URL] = u
		}
	}
	r.URL = u
	h := r.Headers
	r.Headers = nil
	result(r, secure)
	if h != nil {
		r.Headers = m.keptHeaders(h)
	}
}

// keptHeaders is Headers(h), shared between header sets whose kept part is
// the same.
func (m *Memo) keptHeaders(h http.Header) http.Header {
	k := m.key[:0]
	for _, name := range keptHeaders {
		for _, v := range h[name] {
			k = append(k, name...)
			k = append(k, 0)
			k = append(k, v...)
			k = append(k, 0)
		}
	}
	m.key = k
	if out, ok := m.headers[string(k)]; ok {
		return out
	}
	out := Headers(h)
	if len(m.headers) < maxMemo {
		m.headers[string(k)] = out
	}
	return out
}
