package client

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Exchange is one recorded HTTP request and its answer, already redacted:
// no secret key, token, full PAN, CVV or voucher PIN survives in it.
type Exchange struct {
	Method     string        `json:"method"`
	URL        string        `json:"url"`
	ReqHeader  http.Header   `json:"requestHeaders,omitempty"`
	ReqBody    string        `json:"requestBody,omitempty"`
	Status     int           `json:"status"`
	RespHeader http.Header   `json:"responseHeaders,omitempty"`
	RespBody   string        `json:"responseBody,omitempty"`
	Err        string        `json:"error,omitempty"`
	Duration   time.Duration `json:"duration"`
	Retries    int           `json:"retries,omitempty"` // 429s resent before this answer
	Note       string        `json:"note,omitempty"`    // what the client made of the answer (a 409 after a resent 429)
	Curl       string        `json:"curl"`
}

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
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", e.Method, e.URL)
	writeHeaders(&b, "> ", e.ReqHeader)
	if e.ReqBody != "" {
		fmt.Fprintf(&b, "> \n> %s\n", e.ReqBody)
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
		writeHeaders(&b, "< ", e.RespHeader)
		if e.RespBody != "" {
			fmt.Fprintf(&b, "< \n< %s\n", e.RespBody)
		}
	}
	fmt.Fprintf(&b, "reproduce: %s\n", e.Curl)
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
