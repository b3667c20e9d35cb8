package wire

import (
	"bufio"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"golang.org/x/net/http/httpguts"
)

// The lean path writes its requests itself: the request line, Host, a
// User-Agent (net/http's default unless the target sets one), the target's
// headers, Content-Length when there is a body, then the body. Like
// net/http's Transport it refuses a header whose name is not a token or
// whose value holds a control character (a CR or LF in a token the target
// issued cannot inject a header), and it leaves out the headers it writes
// itself.

const defaultUserAgent = "Go-http-client/1.1"

// ownHeaders are written from the request, not copied from the target.
var ownHeaders = map[string]bool{"Host": true, "Content-Length": true, "Transfer-Encoding": true, "Trailer": true, "Connection": true}

// dest is a target URL parsed once: the origin key of its connections and
// the parts of the request line and Host header.
type dest struct {
	u          *url.URL
	key        string // scheme://host
	requestURI string
	lean       bool
}

// checkHeader refuses what net/http's Transport refuses.
func checkHeader(h http.Header) error {
	for k, vs := range h {
		if !httpguts.ValidHeaderFieldName(k) {
			return fmt.Errorf("net/http: invalid header field name %q", k)
		}
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return fmt.Errorf("net/http: invalid header field value for %q", k)
			}
		}
	}
	return nil
}

// writeRequest writes one request to w (not flushed); h has passed
// checkHeader.
func writeRequest(w *bufio.Writer, method string, d *dest, host string, h http.Header, body []byte) error {
	if !httpguts.ValidHostHeader(host) {
		return fmt.Errorf("net/http: invalid Host header %q", host)
	}
	w.WriteString(method)
	w.WriteByte(' ')
	w.WriteString(d.requestURI)
	w.WriteString(" HTTP/1.1\r\nHost: ")
	w.WriteString(host)
	w.WriteString("\r\n")
	if _, ok := h["User-Agent"]; !ok {
		w.WriteString("User-Agent: " + defaultUserAgent + "\r\n")
	}
	for k, vs := range h {
		if ownHeaders[k] {
			continue
		}
		for _, v := range vs {
			w.WriteString(k)
			w.WriteString(": ")
			w.WriteString(v)
			w.WriteString("\r\n")
		}
	}
	if len(body) > 0 || (method != http.MethodGet && method != http.MethodHead && method != http.MethodDelete && method != http.MethodOptions) {
		w.WriteString("Content-Length: ")
		w.WriteString(strconv.Itoa(len(body)))
		w.WriteString("\r\n")
	}
	w.WriteString("\r\n")
	_, err := w.Write(body)
	return err
}
