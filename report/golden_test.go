package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/report/internal/golden"
	"github.com/merchant-harness/mph/result"
)

var update = flag.Bool("update", false, "rewrite the golden files of the rendered conformance reports (testdata/golden)")

// goldenExchange is a recorded exchange as the client renders it, with its
// reproduce line.
const goldenExchange = "--- HTTP exchange 1 of 1 (redacted) ---\n" +
	"> GET http://127.0.0.1:8080/v1/merchant/cards/crd_mph1nosuchcard\n> Accept: application/json\n> Authorization: Bearer ***\n" +
	"< 500 Internal Server Error (2ms)\n< Content-Type: application/json\n< \n" +
	`< {"error":"Internal Server Error","message":"Cannot read properties of null","path":"/v1/merchant/cards/crd_mph1nosuchcard","status":"error","statusCode":500,"timestamp":"2026-11-23T12:00:01.000Z"}` + "\n" +
	`reproduce: TOKEN=$(curl -sS -X POST "$MPH_BASE_URL"'/auth/token' -H 'Content-Type: application/json' --data-raw "{\"merchantId\":\"$MPH_MERCHANT_ID\",\"secretKey\":\"$MPH_SECRET_KEY\"}" | sed -E 's/.*"accessToken" *: *"([^"]+)".*/\1/') && curl -sS "$MPH_BASE_URL"'/cards/crd_mph1nosuchcard' -H 'Accept: application/json' -H "Authorization: Bearer $TOKEN"` + "\n"

// goldenRun is a run with every kind of outcome, money, cells and a
// baseline: the fixture of the golden files and of the browser test.
func goldenRun(t *testing.T) result.Summary {
	t.Helper()
	it := func(id, text string, state types.SpecState, msg string, labels ...string) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, ContainerHierarchyTexts: []string{"Area " + result.AreaOf(id)}, LeafNodeText: text,
			State: state, Failure: types.Failure{Message: msg}, RunTime: 12 * time.Millisecond,
			LeafNodeLabels:   append(labels, result.IDLabelPrefix+id),
			LeafNodeLocation: types.CodeLocation{FileName: "/src/suites/" + result.AreaOf(id) + ".go", LineNumber: 42}}
	}
	nv := func(id, text, why string, labels ...string) types.SpecReport {
		s := it(id, text, types.SpecStateSkipped, result.NoVerdictPrefix+why, labels...)
		s.ReportEntries = types.ReportEntries{{Name: result.NoVerdictEntry}}
		return s
	}
	harness := it("gift.verify-fulfilled", "verifies a fulfilled order", types.SpecStateFailed, result.HarnessErrorPrefix+"fixture: purchasing a gift card answered HTTP 502")
	harness.ReportEntries = types.ReportEntries{{Name: result.HarnessErrorEntry}}
	spent := result.Money{Spent: map[string]int64{"USD": 76062, "NGN": 31200000}, SweptBack: map[string]int64{"USD": 51352}, LeftOnCards: map[string]int64{"USD": 4},
		CardsCreated: 148, CustomersCreated: 12, GiftOrders: 8, CardsSwept: 147, CardsFrozen: 148, Teardown: "done",
		TooManyRequests: 7, Provoked429: 5, BackoffWait: 3 * time.Second, RateLimitsLearned: []string{"read: 20 requests per 1s"}}
	b, err := json.Marshal(spent)
	if err != nil {
		t.Fatal(err)
	}
	r := types.Report{SuiteDescription: "Merchant Payments API v1 conformance", StartTime: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), RunTime: 94 * time.Second,
		SpecReports: types.SpecReports{
			it("cards.answers-404-card-does", "answers 404 for a card that does not exist", types.SpecStateFailed,
				"HTTP status 500, want [404]\nExpected\n    <[]int | len:1, cap:1>: [404]\nto contain element matching\n    <int>: 500\n\n"+goldenExchange, "GET-04", "cards"),
			harness,
			it("withdraw.accepts-minimum", "accepts the minimum withdrawal", types.SpecStatePassed, "", "WITHDRAW-01", "withdraw"),
			it("cards.lists-by-status", "lists cards by status", types.SpecStatePassed, "", "LIST-03", "cards"),
			it("auth.alg-none-config", "refuses alg none on GET /cards/config", types.SpecStatePassed, "", "AUTH-11", "rule:auth.alg-none", "endpoint:config"),
			it("auth.alg-none-list", "refuses alg none on GET /cards", types.SpecStatePassed, "", "AUTH-11", "rule:auth.alg-none", "endpoint:card-list"),
			it("body.null-withdraw", "refuses a null body on POST /cards/{id}/withdraw", types.SpecStateFailed, "HTTP status 200, want a 4xx", "ERR-22", "rule:body.null", "endpoint:withdraw"),
			nv("body.null-status", "refuses a null body on PATCH /cards/{id}/status", "another documented refusal came first (401)", "ERR-22", "rule:body.null", "endpoint:card-status"),
			nv("rate.recovers", "recovers after Retry-After", "rate limited: Retry-After 120s is beyond --retry-after-max 10s", "RATE-03"),
			nv("rate.envelope", "answers 429 with the error envelope", "rate limited: Retry-After 120s is beyond --retry-after-max 10s", "RATE-02"),
			it("isolation.card-of-other", "refuses another merchant's card", types.SpecStateSkipped, "needs a second TEST merchant: set MPH_MERCHANT2_ID and MPH_SECRET_KEY2", "ISO-01"),
			it("isolation.list-of-other", "lists no card of another merchant", types.SpecStateSkipped, "needs a second TEST merchant: set MPH_MERCHANT2_ID and MPH_SECRET_KEY2", "ISO-02"),
			it("txn.authorization", "records an authorization", types.SpecStateSkipped, "needs sandbox test controls: the target offers none", "TXN-01"),
			{LeafNodeType: types.NodeTypeSynchronizedAfterSuite, State: types.SpecStatePassed, ReportEntries: types.ReportEntries{{Name: result.MoneyEntry, Value: types.WrapEntryValue(string(b))}}},
		}}
	old := result.Summary{Meta: result.Meta{RunID: "mphbase1"}, Specs: []result.Spec{
		{ID: "withdraw.accepts-minimum", Outcome: result.Failed}, {ID: "body.null-withdraw", Outcome: result.Failed}, {ID: "cards.lists-by-status", Outcome: result.Passed}}}
	return result.Build(r, result.Options{
		Meta:            result.Meta{Target: "https://qa:secret@test.example.com/v1/merchant", RunID: "mph7f3a9c", Version: "v1.4.0", Profile: "my-target.yaml", ProfileDigest: "sha256:34c6454c7968"},
		Baseline:        &old,
		AcceptNoVerdict: []string{"rate.envelope"},
	})
}

// TestGoldenReports: the rendered forms of a conformance run's reports are
// the files of testdata/golden (go test ./report -run TestGoldenReports
// -update rewrites them; the load reports' are in report/loadreport); a
// change to a renderer shows in review as a change of its output.
func TestGoldenReports(t *testing.T) {
	s := goldenRun(t)
	for name, render := range map[string]func() ([]byte, error){
		"conform.html": func() ([]byte, error) { return RenderHTML(s) },
		"conform.md":   func() ([]byte, error) { return []byte(Markdown(s)), nil },
		"conform.junit.xml": func() ([]byte, error) {
			b, err := xml.MarshalIndent(JUnit(s), "", "  ")
			return append(b, '\n'), err
		},
		"conform.console.txt": func() ([]byte, error) {
			var b bytes.Buffer
			_ = Console(s, "mph-results/junit.xml", "mph-results/report.json", "mph-results/report.summary.json", "mph-results/report.html", "mph-results/summary.md")(&b)
			return b.Bytes(), nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := render()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "report", name, got, *update)
		})
	}
}
