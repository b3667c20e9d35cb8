package cards

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// customerField returns the wire name of an undocumented registration input
// (profile customers.fields), skipping the spec when the target has none.
func customerField(logical string) string {
	GinkgoHelper()
	f := Profile().Customers.Fields[logical]
	if f == "" {
		Skip("the profile names no registration field for " + logical + " (customers.fields." + logical + ")")
	}
	return f
}

// cardholderCustomers is the container of this file's specs (Describe blocks of one text).
const cardholderCustomers = "Cardholder customers: POST and GET /cards/customers"

var _ = Describe(cardholderCustomers, func() {
	registered := Shared(func(ctx SpecContext) *client.Response {
		return Must(API().Post(ctx, "/cards/customers", fixtures.CustomerBody()))
	})
	ConformanceTable("registers and approves a customer",
		func(ctx SpecContext, rule func(SpecContext, *client.Response)) { rule(ctx, registered(ctx)) },
		Destructive,
		ConformanceEntry("answers a registration with 200 or 201 and the customerId", SpecID("customers.answers-registration-200-201"), func(_ SpecContext, resp *client.Response) {
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(resp, schemas.CustomerResponse)
			_, ok := fixtures.CustomerIDFrom(resp)
			Expect(ok).To(BeTrue(), "the registration answer carries the customerId (a string or a number) at %s (profile customers.customerIdPointer) or as a member named customerId", Profile().Customers.CustomerIDPointer)
		}, Reqs("CUST-01", "ERR-06")),
		// "After successful verification the returned customerId is used to
		// issue cards": verification may take a while (customers.approvalWait).
		ConformanceEntry("approves the customer: its customerId issues a card", SpecID("customers.approves-customer-customerid"), func(ctx SpecContext, resp *client.Response) {
			id, ok := fixtures.CustomerIDFrom(resp)
			if !ok {
				HarnessError("fixture: the registration answer (HTTP %d) carries no customerId at %s", resp.Status, Profile().Customers.CustomerIDPointer)
			}
			r, _ := fixtures.IssueCard(ctx, fixtures.WithCustomer(id), fixtures.WithAmount(M("1.00")))
			for r.Status >= 400 && r.Status < 500 && fixtures.AwaitingApproval(ctx, id) {
				r, _ = fixtures.IssueCard(ctx, fixtures.WithCustomer(id), fixtures.WithAmount(M("1.00")))
			}
			ExpectStatus(r, http.StatusOK, http.StatusCreated)
			ExpectSchema(r, schemas.CardIssuanceResponse)
			cid, _ := IDString(fixtures.IssuedCard(r)["id"])
			Expect(cid).NotTo(BeEmpty(), "the card issued for the customer (profile issuance.cardPointer %s)", Profile().Issuance.CardPointer)
		}, Reqs("CUST-06", "ISSUE-01")),
	)

	for _, f := range []string{"firstName", "lastName", "email", "phoneNumber"} {
		ConformanceIt("refuses a registration without "+f+" with 400 and a validation message array", SpecID("customers.missing-"+strings.ToLower(f)),
			Reqs("CUST-02", "ERR-04"), Destructive,
			func(ctx SpecContext) {
				body := fixtures.CustomerBody()
				delete(body, f)
				ExpectValidationError(Must(API().Post(ctx, "/cards/customers", body)))
			})
	}
})

var _ = Describe(cardholderCustomers, func() {
	ConformanceIt("accepts each identity document type national_id, passport and drivers_license", SpecID("customers.accepts-each-identity-document"),
		Reqs("CUST-03"), Destructive,
		func(ctx SpecContext) {
			f := customerField("idType")
			for _, t := range []string{"national_id", "passport", "drivers_license"} {
				body := fixtures.CustomerBody()
				body[f] = t
				resp := Must(API().Post(ctx, "/cards/customers", body))
				ExpectStatus(resp, http.StatusOK, http.StatusCreated)
				ExpectSchema(resp, schemas.CustomerResponse)
			}
		})

	// The document lists the allowed values, so other values are refused; which
	// error it does not say (profile errors.status.invalidValue, else any 4xx).
	// A case variant ("PASSPORT") is not tried: case handling is not shown.
	ConformanceIt("refuses an identity document type outside national_id, passport, drivers_license with a 4xx error (the profile's status)", SpecID("customers.refuses-identity-document-type"),
		Reqs("CUST-03"), Destructive,
		func(ctx SpecContext) {
			f := customerField("idType")
			// Not "": whether the field is required is not shown.
			for _, t := range []string{"voter_card", "identity_card"} {
				body := fixtures.CustomerBody()
				body[f] = t
				ExpectRefused(Must(API().Post(ctx, "/cards/customers", body)), "invalidValue")
			}
		})
})

var _ = Describe(cardholderCustomers, func() {
	// The document gives the form (YYYY-MM-DD) but not that other forms are
	// refused: run only when the profile says the target refuses them.
	ConformanceIt("refuses a date of birth not in YYYY-MM-DD form with a 4xx error, when the profile says the target refuses other forms", SpecID("customers.refuses-date-birth-not"),
		Reqs("CUST-04"), Destructive,
		func(ctx SpecContext) {
			SkipUnlessRefuses("customerDateOfBirth")
			f := customerField("dateOfBirth")
			for _, d := range []string{"12/04/1990", "1990-4-12", "19900412"} {
				body := fixtures.CustomerBody()
				body[f] = d
				ExpectRefused(Must(API().Post(ctx, "/cards/customers", body)), "invalidFormat")
			}
		})

	// The document only says the input is "a 3-letter country code", not that
	// other forms are refused: run only when the profile says the target does.
	ConformanceIt("refuses a country that is not a 3-letter code with a 4xx error, when the profile says the target refuses other forms", SpecID("customers.refuses-country-not-3"),
		Reqs("CUST-05"), Destructive,
		func(ctx SpecContext) {
			SkipUnlessRefuses("customerCountry")
			f := customerField("country")
			for _, c := range []string{"US", "USAA", "U1A"} {
				body := fixtures.CustomerBody()
				body[f] = c
				ExpectRefused(Must(API().Post(ctx, "/cards/customers", body)), "invalidFormat")
			}
		})

	ConformanceIt("accepts a 3-letter country code at registration", SpecID("customers.accepts-3-letter-country"),
		Reqs("CUST-05"), Destructive,
		func(ctx SpecContext) {
			f := customerField("country")
			id := fixtures.NewIdentity()
			body := fixtures.RegistrationBody(id)
			body[f] = id.Country // a 3-letter code of the identity's own address
			resp := Must(API().Post(ctx, "/cards/customers", body))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(resp, schemas.CustomerResponse)
		})

	// "Returns all cardholder customers registered under the merchant"; the
	// listing's freshness is not stated (cards.listingFreshness).
	ConformanceIt("lists every customer registered under the merchant, including a new registration", SpecID("customers.lists-every-customer"),
		Reqs("CUST-07"), Destructive,
		func(ctx SpecContext) {
			id := fixtures.NewCustomer(ctx)
			EventuallyFresh(ctx, "the customer listing shows the new customer", func(g Gomega) {
				resp := Must(API().Get(ctx, "/cards/customers", nil))
				ExpectStatus(resp, http.StatusOK, http.StatusCreated) // the section fixes no status
				ExpectSchema(resp, schemas.CustomerListResponse)
				g.Expect(ListedCustomerIDs(Decode(resp))).To(ContainElement(id), "the new customer is missing from the listing")
			})
		})
})
