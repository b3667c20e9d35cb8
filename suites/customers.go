package suites

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
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

	// The document lists the allowed values, so other values are refused; which
	// error it does not say (profile errors.status.invalidValue, else any 4xx).
	// A case variant ("PASSPORT") is not tried: case handling is not shown.
	ConformanceIt("refuses an identity document type outside national_id, passport, drivers_license with a 4xx error (the profile's status)",
		Reqs("CUST-03"), Destructive,
		func(ctx SpecContext) {
			f := customerField("idType")
			// Not "": whether the field is required is not shown.
			for _, t := range []string{"voter_card", "identity_card"} {
				body := CustomerBody()
				body[f] = t
				ExpectRefusal(Must(API().Post(ctx, "/cards/customers", body)), "invalidValue")
			}
		})

	// The document gives the form (YYYY-MM-DD) but not that other forms are
	// refused: run only when the profile says the target refuses them.
	ConformanceIt("refuses a date of birth not in YYYY-MM-DD form with a 4xx error, when the profile says the target refuses other forms",
		Reqs("CUST-04"), Destructive,
		func(ctx SpecContext) {
			skipUnlessRefuses("customerDateOfBirth")
			f := customerField("dateOfBirth")
			for _, d := range []string{"12/04/1990", "1990-4-12", "19900412"} {
				body := CustomerBody()
				body[f] = d
				ExpectRefusal(Must(API().Post(ctx, "/cards/customers", body)), "invalidFormat")
			}
		})

	// The document only says the input is "a 3-letter country code", not that
	// other forms are refused: run only when the profile says the target does.
	ConformanceIt("refuses a country that is not a 3-letter code with a 4xx error, when the profile says the target refuses other forms",
		Reqs("CUST-05"), Destructive,
		func(ctx SpecContext) {
			skipUnlessRefuses("customerCountry")
			f := customerField("country")
			for _, c := range []string{"US", "USAA", "U1A"} {
				body := CustomerBody()
				body[f] = c
				ExpectRefusal(Must(API().Post(ctx, "/cards/customers", body)), "invalidFormat")
			}
		})

	ConformanceIt("accepts a 3-letter country code at registration",
		Reqs("CUST-05"), Destructive,
		func(ctx SpecContext) {
			f := customerField("country")
			body := CustomerBody()
			body[f] = "NGA"
			resp := Must(API().Post(ctx, "/cards/customers", body))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated)
			ExpectSchema(resp, schemas.CustomerResponse)
		})

	ConformanceIt("lists every customer registered under the merchant, including a new registration",
		Reqs("CUST-07"), Destructive,
		func(ctx SpecContext) {
			id := NewCustomer(ctx)
			resp := Must(API().Get(ctx, "/cards/customers", nil))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated) // the section fixes no status
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
