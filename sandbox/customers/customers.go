// Package customers serves the cardholders' endpoints: registration with
// KYC (POST /cards/customers) and the listing (GET /cards/customers), with
// their faults and settings.
package customers

import (
	"net/http"
	"time"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/settings"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// Endpoints serve the customers of one sandbox.
type Endpoints struct {
	faults   fault.Set
	variants variant.Set
	set      *settings.Settings
}

// New serves them under faults fs, settings vs and their hooks set.
func New(fs fault.Set, vs variant.Set, set *settings.Settings) *Endpoints {
	return &Endpoints{faults: fs, variants: vs, set: set}
}

// Create is POST /cards/customers: registration with KYC, which
// always approves valid input.
func (s *Endpoints) Create(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	n := s.set.CustomerNames()
	c := state.CustomerJSON{
		FirstName:        v.Str("firstName", true, validate.MaxText),
		LastName:         v.Str("lastName", true, validate.MaxText),
		Email:            v.Str("email", !s.faults.On(fault.CustEmailOptional), validate.MaxText),
		PhoneNumber:      v.Str("phoneNumber", true, validate.MaxShort),
		PhoneCountryCode: v.Str(n.CC, true, validate.MaxShort),
		DateOfBirth:      v.Str(n.DOB, true, validate.MaxShort),
		IDType:           v.Str(n.IDType, true, validate.MaxShort),
		Address:          v.Str("address", true, validate.MaxText),
		City:             v.Str("city", true, validate.MaxText),
		State:            v.Str("state", true, validate.MaxText),
		PostalCode:       v.Str(n.Postal, true, validate.MaxShort),
		Country:          v.Str("country", true, validate.MaxShort),
	}
	idNumber := v.Str(n.IDNumber, true, validate.MaxShort)
	v.Match("email", c.Email, validate.Email, "must be an email")
	v.Match("phoneNumber", c.PhoneNumber, validate.Phone, "must be a valid phone number")
	v.Match(n.CC, c.PhoneCountryCode, validate.CC, "must be a + followed by 1 to 4 digits")
	if c.DateOfBirth != "" {
		d, err := time.Parse("2006-01-02", c.DateOfBirth)
		if err != nil && s.variants.On(variant.DOBBasic) {
			d, err = time.Parse("20060102", c.DateOfBirth)
		}
		if err != nil {
			v.Add(n.DOB + " must be a valid ISO 8601 date string (YYYY-MM-DD)")
		} else if !d.Before(rc.Now) {
			v.Add(n.DOB + " must be a date in the past")
		}
	}
	v.OneOf(n.IDType, c.IDType, "national_id", "passport", "drivers_license")
	if !s.variants.On(variant.CountryAlpha2) || !validate.Country2.MatchString(c.Country) {
		v.Match("country", c.Country, validate.Country3, "must be a 3-letter upper-case country code")
	}
	s.set.CustomerRules(&v, c)
	if rc.Invalid(&v) {
		return
	}
	if taken := s.set.ClaimIdentity(rc.St, c, idNumber); taken != "" {
		s.set.RefuseDuplicate(rc, taken)
		return
	}
	c.IDNumberLast4 = last(idNumber, 4)
	c.KYCStatus = "APPROVED"
	if s.faults.On(fault.CustNotApproved) {
		c.KYCStatus = "PENDING"
	}
	c.CustomerID = s.set.NewCustomerID()
	c.CreatedAt = wording.Timestamp(rc.Now)

	st := rc.St
	st.Mu.Lock()
	cu := &state.Customer{Rec: c}
	s.set.PendApproval(cu, rc.Now)
	c = cu.Rec
	st.Customers = append(st.Customers, cu)
	st.CustByID[c.CustomerID] = cu
	st.Mu.Unlock()
	rc.EnvelopeA(http.StatusCreated, c)
}

// List is GET /cards/customers, newest first.
func (s *Endpoints) List(rc *answer.Req) {
	st := rc.St
	st.Mu.RLock()
	listed := s.set.ListedCustomers(st, rc.Now)
	out := make([]state.CustomerJSON, 0, len(listed))
	if s.faults.On(fault.CustListDropsNewest) && len(listed) > 0 {
		listed = listed[:len(listed)-1]
	}
	for _, cu := range s.set.CustomerOrder(listed) {
		rec := cu.Rec
		rec.KYCStatus = s.set.KycStatus(cu, rc.Now)
		out = append(out, rec)
	}
	st.Mu.RUnlock()
	if s.faults.On(fault.CustListTenantLeak) {
		for _, m := range rc.World.Merchants {
			if o := m.Envs[st.Env]; o != st {
				o.Mu.RLock()
				for i := len(o.Customers) - 1; i >= 0; i-- {
					out = append(out, o.Customers[i].Rec)
				}
				o.Mu.RUnlock()
			}
		}
	}
	rc.EnvelopeA(http.StatusOK, out)
}

// last returns the last n bytes of s (all of s when shorter).
func last(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
