package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"

	"golang.org/x/net/http/httpguts"
)

// The answer's head, read without net/http: http.ReadResponse built a
// Response, a header map and a string per field for every answer, which
// was most of the generator's allocations. Here the status line is parsed
// in place and the header section is parsed only when its bytes differ
// from the previous answer's on the same connection (a server sends the
// same fields answer after answer, Date changing once a second), so most
// answers share one read-only header map. The rules are net/http's where
// they matter for safety: the head is bounded (maxHeaderBytes), field
// names are tokens and values hold no control character, conflicting
// Content-Lengths and transfer codings other than chunked are refused, a
// message with both is read as chunked and its connection is not reused,
// HTTP/1.0 closes unless it says keep-alive, and bodies are framed by
// RFC 9112 §6.3 (none for HEAD, 1xx, 204 and 304).

// fields is one parsed header section. It is shared by every answer whose
// section has the same bytes: read it, never change it.
type fields struct {
	raw       []byte      // the section as read, for comparison
	header    http.Header // read-only
	length    int64       // Content-Length, -1 when absent
	chunked   bool
	close     bool // Connection: close
	keepAlive bool // Connection: keep-alive
	both      bool // Transfer-Encoding and Content-Length together
}

// head is one answer's status line and fields.
type head struct {
	code   int
	status []byte // "404 Not Found": status code and reason as sent, in the connection's buffer
	err    string // errorStatus, copied before the connection is given back
	http11 bool
	f      *fields
}

// errorStatus is the status as sent for a code outside 200..399 (the
// result's error, as vegeta's), "" otherwise. It is a copy: the
// connection's buffer is reused once the connection is given back.
func (h head) errorStatus() string {
	if h.code >= 200 && h.code < 400 {
		return ""
	}
	return string(h.status)
}

// errHead is a malformed answer head.
type errHead struct {
	what string
	text []byte
}

func (e *errHead) Error() string {
	t := e.text
	if len(t) > 60 {
		t = t[:60]
	}
	return fmt.Sprintf("malformed HTTP %s %q", e.what, t)
}

// readHead reads one answer head (status line and header section) into
// c.scratch and parses it; the section is parsed again only when it
// differs from c.last's. first says no byte of an answer has come yet: an
// end of stream or reset then is a *noAnswer.
func (c *poolConn) readHead(first bool) (head, error) {
	buf := c.scratch[:0]
	for start := 0; ; start = len(buf) {
		for { // one line, however many reads it takes (the budget bounds it)
			seg, err := c.br.ReadSlice('\n')
			buf = append(buf, seg...)
			if err == nil {
				break
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			c.scratch = buf
			switch {
			case errors.Is(err, errBudget):
				return head{}, fmt.Errorf("answer headers larger than %d bytes", maxHeaderBytes)
			case first && len(buf) == 0 && (errors.Is(err, io.EOF) || isReset(err)):
				return head{}, &noAnswer{err}
			case errors.Is(err, io.EOF):
				return head{}, io.ErrUnexpectedEOF
			}
			return head{}, err
		}
		if line := buf[start:]; start > 0 && (len(line) == 1 || (len(line) == 2 && line[0] == '\r')) {
			break // the empty line ending the head
		}
	}
	c.scratch = buf
	end := bytes.IndexByte(buf, '\n')
	h, err := parseStatus(trimCR(buf[:end]))
	if err != nil {
		return h, err
	}
	section := buf[end+1:]
	if c.last != nil && bytes.Equal(section, c.last.raw) {
		h.f = c.last
		return h, nil
	}
	if h.f, err = parseFields(section); err != nil {
		return h, err
	}
	c.last = h.f
	return h, nil
}

// parseStatus parses "HTTP/1.1 200 OK".
func parseStatus(line []byte) (head, error) {
	var h head
	proto, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok || len(proto) != 8 || !bytes.HasPrefix(proto, []byte("HTTP/1.")) || proto[7] < '0' || proto[7] > '9' {
		return h, &errHead{"status line", line}
	}
	h.http11 = proto[7] >= '1'
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) < 3 || (len(rest) > 3 && rest[3] != ' ') {
		return h, &errHead{"status code", rest}
	}
	for _, b := range rest[:3] {
		if b < '0' || b > '9' {
			return h, &errHead{"status code", rest}
		}
		h.code = h.code*10 + int(b-'0')
	}
	if h.code < 100 {
		return h, &errHead{"status code", rest}
	}
	h.status = rest
	return h, nil
}

// parseFields parses a header section (its lines, the empty one last).
func parseFields(section []byte) (*fields, error) {
	f := &fields{raw: append([]byte(nil), section...), header: http.Header{}, length: -1}
	var lengths [][]byte
	var lastKey string
	for len(section) > 0 {
		i := bytes.IndexByte(section, '\n')
		line := trimCR(section[:i])
		section = section[i+1:]
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' { // obs-fold: one SP (RFC 9112 §5.2)
			vs := f.header[lastKey]
			if lastKey == "" || !validValue(line) {
				return nil, &errHead{"header line", line}
			}
			vs[len(vs)-1] += " " + string(bytes.Trim(line, " \t"))
			continue
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok || !httpguts.ValidHeaderFieldName(string(name)) || !validValue(value) {
			return nil, &errHead{"header line", line}
		}
		value = bytes.Trim(value, " \t")
		lastKey = textproto.CanonicalMIMEHeaderKey(string(name))
		f.header[lastKey] = append(f.header[lastKey], string(value))
		if lastKey == "Content-Length" {
			lengths = append(lengths, value)
		}
	}
	if err := f.framing(lengths); err != nil {
		return nil, err
	}
	return f, nil
}

// framing reads Content-Length, Transfer-Encoding and Connection.
func (f *fields) framing(lengths [][]byte) error {
	for _, l := range lengths {
		n, err := strconv.ParseInt(string(l), 10, 64)
		if err != nil || n < 0 || l[0] == '+' {
			return fmt.Errorf("bad Content-Length %q", l)
		}
		if f.length >= 0 && n != f.length {
			return errors.New("answer with several different Content-Length headers")
		}
		f.length = n
	}
	if te := f.header["Transfer-Encoding"]; len(te) > 0 {
		if len(te) != 1 || !httpguts.HeaderValuesContainsToken(te, "chunked") || len(bytes.Trim([]byte(te[0]), " \t")) != len("chunked") {
			return fmt.Errorf("unsupported transfer encoding %q", te)
		}
		f.chunked, f.both = true, f.length >= 0
	}
	f.close = httpguts.HeaderValuesContainsToken(f.header["Connection"], "close")
	f.keepAlive = httpguts.HeaderValuesContainsToken(f.header["Connection"], "keep-alive")
	return nil
}

// validValue refuses control characters other than HTAB (RFC 9110 §5.5).
func validValue(v []byte) bool {
	for _, b := range v {
		if (b < ' ' && b != '\t') || b == 0x7f {
			return false
		}
	}
	return true
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// bodyless: the answers RFC 9112 §6.3 gives no body.
func bodyless(method string, code int) bool {
	return method == http.MethodHead || code < 200 || code == http.StatusNoContent || code == http.StatusNotModified
}

// reusable says whether the connection may carry another request after
// this answer (its body read to the end).
func (h head) reusable() bool {
	if h.f.close || h.f.both {
		return false
	}
	return h.http11 || h.f.keepAlive
}
