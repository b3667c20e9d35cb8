package proxy

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/redact"
)

// harWriter streams a HAR 1.2 document: the header first, one entry per
// exchange as it is checked, the closing brackets on close. Memory stays
// flat however long the session. Everything is redacted before it is
// written: credentials in headers, secrets in bodies and query strings.
type harWriter struct {
	w      *bufio.Writer
	n      int
	err    error
	origin *url.URL // the upstream's scheme and host
	start  bool
}

func newHARWriter(w io.Writer, origin *url.URL) *harWriter {
	return &harWriter{w: bufio.NewWriterSize(w, 64<<10), origin: origin}
}

type harNV struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type harEntry struct {
	Started  string      `json:"startedDateTime"`
	Time     float64     `json:"time"`
	Request  harRequest  `json:"request"`
	Response harResponse `json:"response"`
	Cache    struct{}    `json:"cache"`
	Timings  harTimings  `json:"timings"`
	Comment  string      `json:"comment,omitempty"`
	Exchange int64       `json:"_mphExchange"` // the #number of the live log lines
}

type harRequest struct {
	Method      string   `json:"method"`
	URL         string   `json:"url"`
	HTTPVersion string   `json:"httpVersion"`
	Cookies     []harNV  `json:"cookies"`
	Headers     []harNV  `json:"headers"`
	QueryString []harNV  `json:"queryString"`
	PostData    *harPost `json:"postData,omitempty"`
	HeadersSize int      `json:"headersSize"`
	BodySize    int64    `json:"bodySize"`
}

type harPost struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	Comment  string `json:"comment,omitempty"`
}

type harResponse struct {
	Status      int        `json:"status"`
	StatusText  string     `json:"statusText"`
	HTTPVersion string     `json:"httpVersion"`
	Cookies     []harNV    `json:"cookies"`
	Headers     []harNV    `json:"headers"`
	Content     harContent `json:"content"`
	RedirectURL string     `json:"redirectURL"`
	HeadersSize int        `json:"headersSize"`
	BodySize    int64      `json:"bodySize"`
}

type harContent struct {
	Size        int64  `json:"size"`
	Compression int64  `json:"compression,omitempty"`
	MimeType    string `json:"mimeType"`
	Text        string `json:"text,omitempty"`
	Comment     string `json:"comment,omitempty"`
}

type harTimings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

const harHeader = `{"log":{"version":"1.2","creator":{"name":"mph proxy","version":"1"},"pages":[],"entries":[`

// write appends one exchange (nil-safe: no HAR requested).
func (h *harWriter) write(ex *exchange, endpoint string) {
	if h == nil || h.err != nil {
		return
	}
	if !h.start {
		_, h.err = h.w.WriteString(harHeader)
		h.start = true
	}
	b, err := json.Marshal(harEntryOf(ex, endpoint, h.origin))
	if err != nil {
		h.err = err
		return
	}
	if h.n > 0 {
		h.w.WriteByte(',')
	}
	h.w.WriteByte('\n')
	_, h.err = h.w.Write(b)
	h.n++
}

func (h *harWriter) close() error {
	if h.err != nil {
		return h.err
	}
	if !h.start {
		h.w.WriteString(harHeader)
	}
	h.w.WriteString("\n]}}\n")
	return h.w.Flush()
}

// harEntryOf renders one exchange; its URL is the upstream one it was sent to.
func harEntryOf(ex *exchange, endpoint string, origin *url.URL) harEntry {
	ms := float64(ex.end.Sub(ex.start)) / float64(time.Millisecond)
	u := url.URL{Scheme: origin.Scheme, Host: origin.Host, Path: ex.path, RawQuery: redact.Text(ex.rawQuery)}
	e := harEntry{
		Started: ex.start.UTC().Format(time.RFC3339Nano), Time: ms,
		Request: harRequest{
			Method: ex.method, URL: u.String(), HTTPVersion: "HTTP/1.1",
			Cookies: []harNV{}, Headers: harHeaders(ex.reqHeader), QueryString: harQuery(ex.rawQuery),
			HeadersSize: -1, BodySize: ex.req.n,
		},
		Response: harResponse{
			Status: ex.status, StatusText: http.StatusText(ex.status), HTTPVersion: "HTTP/1.1",
			Cookies: []harNV{}, Headers: harHeaders(ex.respHeader), HeadersSize: -1,
		},
		Timings:  harTimings{Wait: ms},
		Comment:  endpoint,
		Exchange: ex.seq,
	}
	if ex.req.n > 0 {
		text, note := harBody(ex.req)
		e.Request.PostData = &harPost{MimeType: ex.reqHeader.Get("Content-Type"), Text: text, Comment: note}
	}
	if ex.upErr != nil {
		e.Response.Status, e.Response.StatusText = 0, ""
		e.Comment = strings.TrimSpace(endpoint + " upstream error: " + safe(ex.upErr.Error()))
	}
	if ex.resp != nil {
		text, note := harBody(ex.resp)
		e.Response.BodySize = ex.resp.n
		e.Response.Content = harContent{Size: ex.resp.n, MimeType: ex.respHeader.Get("Content-Type"), Text: text, Comment: note}
		if ex.resp.complete() && int64(len(ex.resp.buf)) != ex.resp.n {
			// Decoded from a content encoding: size is the decoded length.
			e.Response.Content.Size = int64(len(ex.resp.buf))
			e.Response.Content.Compression = e.Response.Content.Size - ex.resp.n
		}
		e.Response.RedirectURL = redact.Text(ex.respHeader.Get("Location"))
	}
	return e
}

func harBody(c *capture) (string, string) {
	if c.starved {
		return "", "not recorded: the proxy's inspection memory was in use"
	}
	if !c.complete() {
		return "", "body larger than the inspection cap (or cut short): not recorded"
	}
	return string(redact.JSON(c.buf)), ""
}

func harHeaders(h http.Header) []harNV {
	out := []harNV{}
	if h == nil {
		return out
	}
	red := redact.Header(h)
	keys := make([]string, 0, len(red))
	for k := range red {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range red[k] {
			out = append(out, harNV{Name: k, Value: v})
		}
	}
	return out
}

func harQuery(raw string) []harNV {
	out := []harNV{}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return out
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range q[k] {
			if redact.SecretField(k) {
				v = redact.Mask // a secret by its name, whatever its value
			}
			out = append(out, harNV{Name: redact.Text(k), Value: redact.Text(v)})
		}
	}
	return out
}
