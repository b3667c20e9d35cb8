package settings

import (
	"math/big"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// phoneLengths are national-number lengths of a few country prefixes.
var phoneLengths = map[string]int{"+1": 10, "+44": 10, "+234": 10}

var reNameChars = regexp.MustCompile(`^[\p{L} '-]+$`)

// CustomerRules adds the registration rules' violations to v.
func (s *Settings) CustomerRules(v *validate.Fields, c state.CustomerJSON) {
	if s.v.On(variant.PhoneValidated) && c.PhoneNumber != "" {
		national := strings.TrimLeft(strings.TrimPrefix(c.PhoneNumber, c.PhoneCountryCode), "0")
		if n, ok := phoneLengths[c.PhoneCountryCode]; ok && len(national) != n {
			v.Add("phoneNumber must be a valid phone number for " + c.PhoneCountryCode)
		}
	}
	if s.v.On(variant.NamesLetters) {
		for name, val := range map[string]string{"firstName": c.FirstName, "lastName": c.LastName} {
			if val != "" && !reNameChars.MatchString(val) {
				v.Add(name + " must contain only letters, spaces, apostrophes and hyphens")
			}
		}
	}
}

// ClaimIdentity records a new customer's unique inputs in st and reports
// the first already taken ("" when none); it claims nothing then.
func (s *Settings) ClaimIdentity(st *state.EnvState, c state.CustomerJSON, idNumber string) string {
	v := &s.v
	all := v.On(variant.UniqueIdentity)
	var keys, names []string
	add := func(on bool, kind, val string) {
		if on || all {
			keys = append(keys, kind+"\x00"+strings.ToLower(val))
			names = append(names, kind)
		}
	}
	add(v.On(variant.UniqueIDNumber), "identity document number", idNumber)
	add(v.On(variant.UniquePhone), "phone number", c.PhoneCountryCode+c.PhoneNumber)
	add(v.On(variant.UniqueEmail), "e-mail", c.Email)
	if len(keys) == 0 {
		return ""
	}
	prefix := st.Merchant.ID + "/" + st.Env.String() + "/"
	vs := s.mem
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for i, k := range keys {
		if vs.identities[prefix+k] {
			return names[i]
		}
	}
	for _, k := range keys {
		vs.identities[prefix+k] = true
	}
	return ""
}

// RefuseDuplicate answers the 409 of a taken identity input.
func (s *Settings) RefuseDuplicate(q *answer.Req, what string) {
	q.Error(http.StatusConflict, "A customer with this "+what+" is already registered")
}

// PendApproval makes a new customer wait for verification
// (customer-approval-delayed); the record then says PENDING.
func (s *Settings) PendApproval(cu *state.Customer, now time.Time) {
	if !s.v.On(variant.ApprovalDelayed) {
		return
	}
	cu.Rec.KYCStatus = "PENDING"
	s.mem.mu.Lock()
	s.mem.approveAt[cu] = now.Add(2 * time.Second)
	s.mem.mu.Unlock()
}

// KycStatus is a customer's verification status at now: a pending one
// is approved once its time has come (customer-approval-delayed).
func (s *Settings) KycStatus(cu *state.Customer, now time.Time) string {
	if !s.v.On(variant.ApprovalDelayed) || cu.Rec.KYCStatus != "PENDING" {
		return cu.Rec.KYCStatus
	}
	s.mem.mu.Lock()
	at, ok := s.mem.approveAt[cu]
	s.mem.mu.Unlock()
	if ok && !now.Before(at) {
		return "APPROVED"
	}
	return "PENDING"
}

// CustomerOrder returns the customers in listing order (newest first, or
// oldest first under customer-list-oldest-first).
func (s *Settings) CustomerOrder(cs []*state.Customer) []*state.Customer {
	out := make([]*state.Customer, len(cs))
	for i, c := range cs {
		if s.v.On(variant.CustListOldest) {
			out[i] = c
		} else {
			out[len(cs)-1-i] = c
		}
	}
	return out
}

// CustomerNames are the wire names of the registration inputs whose names
// are not shown, under the field-name settings.
type CustomerNames struct{ CC, DOB, IDType, IDNumber, Postal string }

func (s *Settings) CustomerNames() CustomerNames {
	if s.v.On(variant.CustomerSnake) {
		return CustomerNames{"phone_country_code", "date_of_birth", "id_type", "id_number", "postal_code"}
	}
	return CustomerNames{"phoneCountryCode", "dateOfBirth", "idType", "idNumber", "postalCode"}
}

// NewCustomerID is a new customer's id: cus_<hex>, or digits under
// customer-id-numeric.
func (s *Settings) NewCustomerID() string {
	if s.v.On(variant.CustomerIDNumeric) {
		return ids.DigitIn("123456789") + ids.Digits(9)
	}
	return "cus_" + ids.Hex(12)
}

// CustomerIDOf reads issuance's customerId: a string, or under
// customer-id-numeric also a JSON number, read by value (1234.0 and 1.234e3
// are 1234).
func (s *Settings) CustomerIDOf(v *validate.Fields) string {
	if r, ok := v.Raw("customerId"); ok && s.v.On(variant.CustomerIDNumeric) && r[0] >= '0' && r[0] <= '9' {
		if n, ok := new(big.Rat).SetString(string(r)); ok && n.IsInt() {
			return n.Num().String()
		}
	}
	return v.Str("customerId", true, validate.MaxText)
}
