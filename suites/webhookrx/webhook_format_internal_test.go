package webhookrx

import (
	"strings"
	"testing"
	"time"

	. "github.com/onsi/gomega"
)

// A failed assertion on deliveries shows each one's path, time and body on
// one line, not a struct dump with its headers.
func TestDeliveriesShowInFailureMessages(t *testing.T) {
	var msg string
	g := NewGomega(func(m string, _ ...int) { msg = m })
	g.Expect([]Delivery{{Path: "/hook", Body: []byte(`{"event":"card.frozen"}`), Received: time.Unix(0, 0),
		Header: map[string][]string{"X-Signature": {"abc"}}}}).To(BeEmpty())
	if want := `webhook /hook at 00:00:00.000: {"event":"card.frozen"}`; !strings.Contains(msg, want) {
		t.Errorf("message lacks %q:\n%s", want, msg)
	}
	if strings.Contains(msg, "X-Signature") || len(msg) > 300 {
		t.Errorf("message dumps the delivery:\n%s", msg)
	}
}
