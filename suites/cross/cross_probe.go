package cross

// Probes of the cross-cutting cells: one valid request per endpoint of the
// table (api.Endpoints), addressing a REAL resource of the primary merchant
// with a harmless body, so that exactly one documented refusal applies when
// a cell spoils one thing (the credentials, the body). A refusal the
// document lists that may still come first (the order of checks is not
// shown) gives no verdict, never a failure.

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// noVerdict ends a cell without a verdict (the framework's NoVerdict, which
// counts towards exit 3): another documented refusal came first, or the
// rule could not be judged.
func noVerdict(format string, a ...any) {
	GinkgoHelper()
	NoVerdict(fmt.Sprintf(format, a...))
}

// notApplicable skips a cell the target's declared choices leave without a
// rule to judge.
func notApplicable(format string, a ...any) {
	GinkgoHelper()
	Skip("not applicable: " + fmt.Sprintf(format, a...))
}

// probe is one valid request to an endpoint and the refusals a valid
// credential may still get for it.
type probe struct {
	e   api.Endpoint
	req client.Request
	// others are documented refusals that may come before the one a cell
	// provokes: an unknown resource (404) when no real one could be made,
	// PATCH status to the card's current status (not shown).
	others []int
}

// crossCard is a card of the primary merchant the probes address, one per
// process: 2.00 USD, so that a wrongly accepted 0.10 withdrawal changes
// nothing that matters.
var crossCard = Shared(func(ctx SpecContext) fixtures.Card {
	return ActiveCard(ctx, fixtures.NewCard(ctx, fixtures.WithAmount(M("2.00"))))
})

// crossOrder is a gift order of the primary merchant the probes address.
var crossOrder = Shared(func(ctx SpecContext) GiftOrder { return PurchaseGift(ctx) })

// crossLookupRef is crossOrder's internal transaction reference as the
// transaction lookup takes it (GiftTransactionRef: which member of the
// order holds it is not shown); "" when none addresses it.
var crossLookupRef = Shared(func(ctx SpecContext) string {
	o := crossOrder(ctx)
	order := ExpectVerifiedOrder(VerifyGift(ctx, API(), o.Reference))
	return GiftTransactionRef(ctx, API(), GiftLookupPath, order, o.Reference)
})

// runEndpoint is the table's endpoint of this run (the issuance path is the
// profile's).
func runEndpoint(slug string) api.Endpoint {
	GinkgoHelper()
	e, ok := api.EndpointBySlug(Profile(), slug)
	if !ok {
		HarnessError("no endpoint %q in the table", slug)
	}
	return e
}

// newProbe builds the valid request of e: real resources, unless the
// primary credentials are LIVE and may not create any (then unknown ones,
// and a 404 gives no verdict).
func newProbe(ctx SpecContext, e api.Endpoint) probe {
	GinkgoHelper()
	return newProbeOf(ctx, e, !LiveRefused())
}

// newProbeOf builds the valid request of e to real resources of the
// primary merchant, or (real false) to unknown ones.
func newProbeOf(ctx SpecContext, e api.Endpoint, real bool) probe {
	GinkgoHelper()
	p := probe{e: e, req: client.Request{Method: e.Method}}
	var params []string
	for _, prm := range e.Params {
		params = append(params, probeParam(ctx, prm.Of, real))
	}
	if !real && (len(params) > 0 || e.Order == "issuance") {
		p.others = append(p.others, http.StatusNotFound)
	}
	p.req.Path = e.Path(params...)
	if e.Order == "issuance" {
		p.req.Path = Profile().Issuance.Path
	}
	if e.Query != nil {
		p.req.Query = e.Query(Profile())
	}
	if e.Body != nil {
		p.req.Body = sampleBody(ctx, e, real)
	}
	if e.Slug == "card-status" && Profile().Cards.SameStatus != "ok" {
		p.others = append(p.others, http.StatusBadRequest) // the sample keeps the card's status
	}
	return p
}

// probeParam is the value of a path parameter naming a resource of kind.
func probeParam(ctx SpecContext, of api.Resource, real bool) string {
	GinkgoHelper()
	switch {
	case of == api.ResCard && real:
		return crossCard(ctx).ID
	case of == api.ResCard:
		return "crd_" + fixtures.Ref("nosuch")
	case !real:
		return fixtures.Ref("nosuch")
	case of == api.ResGiftTransaction:
		if t := crossLookupRef(ctx); t != "" {
			return t
		}
		notApplicable("no member of the gift order addresses it at the transaction lookup (its internal transaction reference; GIFT-17 judges that)")
	}
	return crossOrder(ctx).Reference
}

// sampleBody is the endpoint's valid, harmless body for this run.
func sampleBody(ctx SpecContext, e api.Endpoint, real bool) map[string]any {
	GinkgoHelper()
	in := api.SampleInput{Profile: Profile(), Ref: fixtures.Ref("x"), MerchantID: Cfg().Primary.MerchantID, SecretKey: Cfg().Primary.SecretKey}
	switch e.Slug {
	case "customer-create":
		in.Customer = fixtures.CustomerBody()
	case "issuance":
		in.CustomerID = "cus_" + fixtures.Ref("nosuch")
		if real {
			in.CustomerID = fixtures.SharedCustomer(ctx)
		}
	}
	body := e.Body.Sample(in)
	if e.Slug == "issuance" && real {
		// The customer id in the JSON type the registration answered it in
		// (its type is not shown: a number goes back as a number).
		f := Profile().Issuance.CustomerIDField
		body[f] = fixtures.IssuanceBody(in.CustomerID, "", M("1.00"), "")[f]
	}
	return body
}

// judge reads a refusal: a status of want passes with the error envelope
// (it is returned), one of p.others gives no verdict, a 2xx passes when ok2xx
// (returning nil), anything else fails (a 5xx: the server failed instead of
// refusing).
func (p probe) judge(resp *client.Response, what string, ok2xx bool, want ...int) JSON {
	GinkgoHelper()
	switch {
	case slices.Contains(want, resp.Status):
		return ExpectError(resp, resp.Status)
	case slices.Contains(p.others, resp.Status):
		noVerdict("%s on %s answered HTTP %d, a refusal the document lists for another condition that may be checked first (the order of checks is not shown)",
			what, p.e.Key(), resp.Status)
	case ok2xx && resp.Status >= 200 && resp.Status < 300:
		return nil
	case resp.Status >= 500:
		Expect(resp.Status).To(BeNumerically("<", 500), "%s on %s: the server failed (HTTP %d) instead of refusing with %v", what, p.e.Key(), resp.Status, want)
	}
	ExpectStatus(resp, want...) // fails (a 429 beyond the back-off: no verdict)
	return nil
}

// do sends the probe's request through c, with changes.
func (p probe) do(ctx context.Context, c *client.Client, change ...func(*client.Request)) *client.Response {
	GinkgoHelper()
	r := p.req
	r.Header = http.Header{}
	for _, f := range change {
		f(&r)
	}
	return Must(c.Do(ctx, r))
}

// genuine is a token of the primary merchant for the cells that forge or
// age one, re-issued after ten minutes (it lives fifteen).
var genuine struct {
	mu  sync.Mutex
	tok string
	at  time.Time
}

func genuineToken(ctx context.Context) string {
	GinkgoHelper()
	genuine.mu.Lock()
	defer genuine.mu.Unlock()
	if genuine.tok == "" || time.Since(genuine.at) > 10*time.Minute {
		genuine.tok, genuine.at = FreshToken(ctx), time.Now()
	}
	return genuine.tok
}
