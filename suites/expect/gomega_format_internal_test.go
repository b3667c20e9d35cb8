package expect

import (
	"encoding/json"
	"strings"
	"testing"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/format"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/result"
)

// failureOf runs one assertion and returns its failure message.
func failureOf(assert func(g Gomega)) string {
	var msg string
	g := NewGomega(func(m string, _ ...int) { msg = m })
	assert(g)
	return msg
}

func TestFailureMessagesShowWireForms(t *testing.T) {
	var _ format.GomegaStringer = Money{}
	cases := []struct {
		name    string
		assert  func(g Gomega)
		want    []string
		maxLen  int
		notWant []string
	}{
		{"balance", func(g Gomega) { g.Expect(M("1.00")).To(EqualMoney(M("0.50")), "balance after the withdrawal") },
			[]string{"1.00", "0.50", "balance after the withdrawal"}, 200, nil},
		{"money equality", func(g Gomega) { g.Expect(M("1.00")).To(Equal(M("2"))) },
			[]string{"1.00", "2.00"}, 200, nil},
		{"response", func(g Gomega) {
			g.Expect(&client.Response{Path: "/v1/merchant/cards/x", Status: 404, Body: []byte(`{"statusCode":404}`),
				Exchange: &client.Exchange{Method: "GET"}}).To(BeNil())
		}, []string{"HTTP 404 to GET /v1/merchant/cards/x", `{"statusCode":404}`}, 300, nil},
		{"JSON object", func(g Gomega) {
			g.Expect(JSON{"status": "error", "statusCode": json.Number("404"), "data": []any{"a"}}).To(HaveKey("message"))
		}, []string{`{"data":["a"],"status":"error","statusCode":404}`}, 300, nil},
	}
	for _, c := range cases {
		msg := failureOf(c.assert)
		t.Logf("%s:\n%s", c.name, msg)
		if msg == "" {
			t.Fatalf("%s: the assertion did not fail", c.name)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message lacks %q:\n%s", c.name, w, msg)
			}
		}
		for _, bad := range []string{"abs:", "neg:", "Raw:", "big.Rat", `"status": `} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: message dumps internals (%q):\n%s", c.name, bad, msg)
			}
		}
		if len(msg) > c.maxLen {
			t.Errorf("%s: message is %d bytes, want <= %d:\n%s", c.name, len(msg), c.maxLen, msg)
		}
		if h := result.Headline(msg, ""); len([]rune(h)) > result.MaxHeadline || strings.Contains(h, "\n") {
			t.Errorf("%s: headline %q", c.name, h)
		}
	}
}
