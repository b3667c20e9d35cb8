package suites

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
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

var _ = Describe("Cardholder customers: POST and GET /cards/customers", func() {
	ConformanceIt("registers and approves a customer whose customerId can issue a card",
		Reqs("CUST-01", "CUST-06", "ISSUE-01", "ERR-06"), Destructive,
		func(ctx SpecContext) {
			resp := Must(API().Post(ctx, "/cards/customers", CustomerBody()))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(resp, schemas.CustomerResponse)
			v, ok := Ptr(Decode(resp), Profile().Customers.CustomerIDPointer)
			Expect(ok).To(BeTrue(), "no customerId at %s", Profile().Customers.CustomerIDPointer)
			id, _ := v.(string)
			Expect(id).NotTo(BeEmpty(), "customerId")
			card := NewCard(ctx, WithCustomer(id), WithAmount(M("1.00")))
			Expect(card.ID).NotTo(BeEmpty())
		})

	for _, f := range []string{"firstName", "lastName", "email", "phoneNumber"} {
		ConformanceIt("refuses a registration without "+f+" with 400 and a validation message array",
			Reqs("CUST-02", "ERR-04"), Destructive,
			func(ctx SpecContext) {
				body := CustomerBody()
				delete(body, f)
				ExpectValidationError(Must(API().Post(ctx, "/cards/customers", body)))
			})
	}

	ConformanceIt("accepts each identity document type national_id, passport and drivers_license",
		Reqs("CUST-03"), Destructive,
		func(ctx SpecContext) {
			f := customerField("idType")
			for _, t := range []string{"national_id", "passport", "drivers_license"} {
				body := CustomerBody()
				body[f] = t
				resp := Must(API().Post(ctx, "/cards/customers", body))
				ExpectStatus(resp, http.StatusOK, http.StatusCreated)
				ExpectSchema(resp, schemas.CustomerResponse)
			}
		})

	ConformanceIt("refuses an identity document type outside national_id, passport, drivers_license with 400",
		Reqs("CUST-03"), Destructive,
		func(ctx SpecContext) {
			f := customerField("idType")
			for _, t := range []string{"voter_card", "PASSPORT", ""} {
				body := CustomerBody()
				body[f] = t
				ExpectError(Must(API().Post(ctx, "/cards/customers", body)), http.StatusBadRequest)
			}
		})

	ConformanceIt("refuses a date of birth not in YYYY-MM-DD form with 400",
		Reqs("CUST-04"), Destructive,
		func(ctx SpecContext) {
			f := customerField("dateOfBirth")
			for _, d := range []string{"12/04/1990", "1990-4-12", "19900412"} {
				body := CustomerBody()
				body[f] = d
				ExpectError(Must(API().Post(ctx, "/cards/customers", body)), http.StatusBadRequest)
			}
		})

	ConformanceIt("refuses a country that is not a 3-letter code with 400",
		Reqs("CUST-05"), Destructive,
		func(ctx SpecContext) {
			f := customerField("country")
			for _, c := range []string{"US", "USAA", "U1A"} {
				body := CustomerBody()
				body[f] = c
				ExpectError(Must(API().Post(ctx, "/cards/customers", body)), http.StatusBadRequest)
			}
		})

	ConformanceIt("lists every customer registered under the merchant, including a new registration",
		Reqs("CUST-07"), Destructive,
		func(ctx SpecContext) {
			id := NewCustomer(ctx)
			resp := Must(API().Get(ctx, "/cards/customers", nil))
			ExpectStatus(resp, http.StatusOK)
			ExpectSchema(resp, schemas.CustomerListResponse)
			v, ok := Ptr(Decode(resp), Profile().Customers.ListPointer)
			Expect(ok).To(BeTrue(), "no customer list at %s", Profile().Customers.ListPointer)
			list, _ := v.([]any)
			var ids []string
			for _, c := range list {
				if m, ok := c.(JSON); ok {
					if s, ok := m[Profile().Customers.ListIDField].(string); ok {
						ids = append(ids, s)
					}
				}
			}
			Expect(ids).To(ContainElement(id), "the new customer is missing from the listing")
		})
})
