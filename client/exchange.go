package client

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/merchant-harness/mph/redact"
)

// Exchange is one recorded HTTP request and its answer. What it shows is
// redacted: no secret key, token, full PAN, CVV or voucher PIN survives in
// its URL, Err, headers, bodies or reproduce line. The headers, bodies and
// reproduce line are redacted when first asked for, not when recorded: a
// run records every exchange but shows only a failing spec's, and redacting
// them all cost a quarter of a run's CPU. The secret members of the bodies
// are learned when recorded, so free text is masked as before.
type Exchange struct {
	Method   string
	URL      string
	Status   int
	Err      string
	Duration time.Duration
	Retries  int    // 429s resent before this answer
	Note     string // what the client made of the answer (a 409 after a resent 429)

	raw   rawExchange
	once  sync.Once
	shown shownExchange
}

// rawExchange is what went over the wire, kept until the exchange is shown.
type rawExchange struct {
	reqHeader, respHeader http.Header
	reqBody, respBody     []byte
	hasReqBody, answered  bool
	curl                  curlReq
}

// shownExchange is an exchange's redacted, cut forms.
type shownExchange struct {
	reqHeader, respHeader http.Header
	reqBody, respBody     string
	curl                  string
}

// eagerAbove is the body size from which an exchange is redacted when it is
// recorded: a spec's exchanges then keep at most this much raw per body.
const eagerAbove = 64 << 10

// newExchange records a request as sent: its header is copied, its body
// kept as it is (the client never reuses it).
func newExchange(method, url string, h http.Header, body []byte, hasBody bool, curl curlReq) *Exchange {
	redact.LearnJSON(body)
	curl.header = h.Clone()
	return &Exchange{Method: method, URL: url, raw: rawExchange{reqHeader: curl.header, reqBody: body, hasReqBody: hasBody, curl: curl}}
}

// answer records the answer's header and body (rb is not modified later).
func (e *Exchange) answer(h http.Header, rb []byte) {
	redact.LearnJSON(rb)
	e.raw.respHeader, e.raw.respBody, e.raw.answered = h, rb, true
	if len(rb) > eagerAbove || len(e.raw.reqBody) > eagerAbove {
		e.redacted()
	}
}

// redacted returns the shown forms, computing them once; the raw forms are
// dropped then.
func (e *Exchange) redacted() *shownExchange {
	e.once.Do(func() {
		r := e.raw
		e.shown.reqHeader = redact.Header(r.reqHeader)
		if r.hasReqBody {
			// Redact the whole body first, then cut what is kept for reports.
			e.shown.reqBody = cutBody(string(redact.JSON(r.reqBody)))
		}
		if r.answered {
			e.shown.respHeader = redact.Header(r.respHeader)
			e.shown.respBody = cutBody(string(redact.JSON(r.respBody)))
		}
		if r.curl.method != "" {
			e.shown.curl = r.curl.line()
		}
		e.raw = rawExchange{}
	})
	return &e.shown
}

// RequestHeader is the request's header, redacted.
func (e *Exchange) RequestHeader() http.Header { return e.redacted().reqHeader }

// RequestBody is the request's body, redacted and cut at MaxShownBody.
func (e *Exchange) RequestBody() string { return e.redacted().reqBody }

// ResponseHeader is the answer's header, redacted.
func (e *Exchange) ResponseHeader() http.Header { return e.redacted().respHeader }

// ResponseBody is the answer's body, redacted and cut at MaxShownBody.
func (e *Exchange) ResponseBody() string { return e.redacted().respBody }

// Reproduce is the shell line sending the request again.
func (e *Exchange) Reproduce() string { return e.redacted().curl }

// MaxShownBody is the most of a body an Exchange keeps (and so any report
// or terminal shows); the rest is replaced by a note stating its size.
const MaxShownBody = 4 << 10

// cutBody keeps the first MaxShownBody bytes of an already redacted body
// (never splitting a UTF-8 sequence) and states how much was cut.
func cutBody(s string) string {
	if len(s) <= MaxShownBody {
		return s
	}
	n := MaxShownBody
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s… [cut: %d more bytes]", s[:n], len(s)-n)
}

// Budget bounds the bytes of exchanges attached to one run's reports, so a
// target answering huge or many bodies cannot grow the reports without
// limit. It is safe for concurrent use; the zero Budget refuses nothing.
type Budget struct {
	mu    sync.Mutex
	Limit int64 // 0 = unlimited
	used  int64
	spent bool
}

// Take reserves n bytes and reports whether they fit.
func (b *Budget) Take(n int) bool {
	if b == nil || b.Limit <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+int64(n) > b.Limit {
		b.spent = true
		return false
	}
	b.used += int64(n)
	return true
}

// Spent reports whether Take has refused anything.
func (b *Budget) Spent() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// String renders the exchange for a human: request line, headers, body,
// status, response headers, body and the curl line reproducing it.
func (e *Exchange) String() string {
	sh := e.redacted()
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", e.Method, e.URL)
	writeHeaders(&b, "> ", sh.reqHeader)
	if sh.reqBody != "" {
		fmt.Fprintf(&b, "> \n> %s\n", sh.reqBody)
	}
	if e.Err != "" {
		fmt.Fprintf(&b, "< (no answer: %s) after %s\n", e.Err, e.Duration.Round(time.Millisecond))
	} else {
		fmt.Fprintf(&b, "< %d %s (%s", e.Status, http.StatusText(e.Status), e.Duration.Round(time.Millisecond))
		if e.Retries > 0 {
			fmt.Fprintf(&b, ", after %d retries on 429", e.Retries)
		}
		b.WriteString(")\n")
		if e.Note != "" {
			fmt.Fprintf(&b, "< (%s)\n", e.Note)
		}
		writeHeaders(&b, "< ", sh.respHeader)
		if sh.respBody != "" {
			fmt.Fprintf(&b, "< \n< %s\n", sh.respBody)
		}
	}
	fmt.Fprintf(&b, "reproduce: %s\n", sh.curl)
	return b.String()
}

func writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			fmt.Fprintf(b, "%s%s: %s\n", prefix, k, v)
		}
	}
}

// Recorder collects the exchanges of one spec. It is safe for concurrent use.
type Recorder struct {
	mu        sync.Mutex
	exchanges []*Exchange
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{} }

// Add appends an exchange.
func (r *Recorder) Add(e *Exchange) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.exchanges = append(r.exchanges, e)
	r.mu.Unlock()
}

// Exchanges returns a copy of the recorded exchanges, oldest first.
func (r *Recorder) Exchanges() []*Exchange {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Exchange(nil), r.exchanges...)
}

// Last returns the most recent exchange, or nil.
func (r *Recorder) Last() *Exchange {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.exchanges) == 0 {
		return nil
	}
	return r.exchanges[len(r.exchanges)-1]
}

// Reset forgets every exchange.
func (r *Recorder) Reset() {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.exchanges = nil
	r.mu.Unlock()
}
