package wire

import (
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

// own says whether a header is written from the request, not copied from
// the target.
func own(k string) bool {
	switch k {
	case "Host", "Content-Length", "Transfer-Encoding", "Trailer", "Connection":
		return true
	}
	return false
}

// dest is a target URL parsed once: the origin key of its connections and
// the parts of the request line and Host header.
type dest struct {
	u          *url.URL
	key        string // scheme://host
	requestURI string
	lean       bool
}

// appendRequest appends one request to b, or refuses what net/http's
// Transport refuses: an invalid Host, a header name that is not a token, a
// value with a control character.
func appendRequest(b []byte, method string, d *dest, host string, h http.Header, body []byte) ([]byte, error) {
	if !httpguts.ValidHostHeader(host) {
		return b, fmt.Errorf("net/http: invalid Host header %q", host)
	}
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, d.requestURI...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\n"...)
	if _, ok := h["User-Agent"]; !ok {
		b = append(b, "User-Agent: "+defaultUserAgent+"\r\n"...)
	}
	for k, vs := range h {
		if !httpguts.ValidHeaderFieldName(k) {
			return b, fmt.Errorf("net/http: invalid header field name %q", k)
		}
		for _, v := range vs {
			if !httpguts.ValidHeaderFieldValue(v) {
				return b, fmt.Errorf("net/http: invalid header field value for %q", k)
			}
			if own(k) {
				continue
			}
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	if len(body) > 0 || (method != http.MethodGet && method != http.MethodHead && method != http.MethodDelete && method != http.MethodOptions) {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	return append(b, body...), nil
}
