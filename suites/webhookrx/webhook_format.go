package webhookrx

import (
	"fmt"
	"strings"
)

// GomegaString renders a received webhook without its headers.
func (d Delivery) GomegaString() string {
	body := strings.Join(strings.Fields(string(d.Body)), " ")
	if len(body) > 200 {
		body = body[:200] + "…"
	}
	return fmt.Sprintf("webhook %s at %s: %s", d.Path, d.Received.UTC().Format("15:04:05.000"), body)
}
