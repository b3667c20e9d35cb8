package client

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/merchant-harness/mph/redact"
)

// GomegaString renders a response on one line for failure messages (Gomega's
// format.GomegaStringer): status, request and the start of the redacted body,
// instead of a dump of headers, bytes and the recorded exchange.
func (r *Response) GomegaString() string {
	if r == nil {
		return "no response"
	}
	req := r.Path
	if r.Exchange != nil {
		req = r.Exchange.Method + " " + r.Path
	}
	body := strings.Join(strings.Fields(redact.Text(string(r.Body))), " ")
	if utf8.RuneCountInString(body) > 160 {
		body = string([]rune(body)[:160]) + "…"
	}
	return fmt.Sprintf("HTTP %d to %s (%d bytes: %s)", r.Status, req, len(r.Body), body)
}
