package expect

import (
	"encoding/json"
	"testing"

	"github.com/merchant-harness/mph/suites/internal/failmsg"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/format"

	"github.com/merchant-harness/mph/client"
)

func TestFailureMessagesShowWireForms(t *testing.T) {
	var _ format.GomegaStringer = Money{}
	cases := []failmsg.Case{
		failmsg.C("balance", func(g Gomega) { g.Expect(M("1.00")).To(EqualMoney(M("0.50")), "balance after the withdrawal") },
			[]string{"1.00", "0.50", "balance after the withdrawal"}, 200),
		failmsg.C("money equality", func(g Gomega) { g.Expect(M("1.00")).To(Equal(M("2"))) },
			[]string{"1.00", "2.00"}, 200),
		failmsg.C("response", func(g Gomega) {
			g.Expect(&client.Response{Path: "/v1/merchant/cards/x", Status: 404, Body: []byte(`{"statusCode":404}`),
				Exchange: &client.Exchange{Method: "GET"}}).To(BeNil())
		}, []string{"HTTP 404 to GET /v1/merchant/cards/x", `{"statusCode":404}`}, 300),
		failmsg.C("JSON object", func(g Gomega) {
			g.Expect(JSON{"status": "error", "statusCode": json.Number("404"), "data": []any{"a"}}).To(HaveKey("message"))
		}, []string{`{"data":["a"],"status":"error","statusCode":404}`}, 300),
	}
	failmsg.Check(t, cases)
}
