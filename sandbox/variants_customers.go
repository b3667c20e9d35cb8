package sandbox

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Customers: registration rules, uniqueness and approval are "not shown".
var (
	dCustomerUnique = declareDimension("customer-rules", []string{"OPEN-CUSTOMER-IDENTITY-RULES"},
		"Which registration inputs must be unique per merchant.",
		quote("Registers a cardholder and submits identity verification", "Customer verification states: not shown"),
		"customer-duplicates-allowed", "Any number of customers may share a document, phone or e-mail.")
	vUniqueIDNumber = dCustomerUnique.setting("customer-unique-id-number", "A second customer with the same identity document number is refused with 409.",
		`identity verification is submitted at registration; other failure conditions: not shown`, "", false)
	vUniquePhone = dCustomerUnique.setting("customer-unique-phone", "A second customer with the same phone number is refused with 409.",
		`other failure conditions: not shown`, "", false)
	vUniqueEmail = dCustomerUnique.setting("customer-unique-email", "A second customer with the same e-mail is refused with 409.",
		`other failure conditions: not shown`, "", false)
	vUniqueIdentity = dCustomerUnique.setting("customer-unique-identity", "Document number, phone and e-mail are each unique per merchant (409).",
		`other failure conditions: not shown`, "", false)

	dCustomerRules = declareDimension("customer-input-rules", []string{"OPEN-CUSTOMER-FIELD-FORMS"},
		"Validation of registration inputs beyond their presence.",
		quote("firstName | string | yes", "phoneNumber | string | yes", "Names and required flags of the additional registration fields: not shown"),
		"customer-inputs-loose", "Names any text; a phone number 7 to 15 digits.")
	vPhoneValidated = dCustomerRules.setting("customer-phone-validated", "Phone numbers are validated for their country prefix: +1, +44 and +234 numbers need 10 national digits (libphonenumber's lengths).",
		`"phoneNumber | string | yes" (its validation is not shown)`, "", false)
	vNamesLetters = dCustomerRules.setting("customer-names-letters-only", "firstName and lastName hold letters, spaces, apostrophes and hyphens only (a KYC rule).",
		`"firstName | string", "lastName | string" (their validation is not shown)`, "", false)

	dCustomerFields = declareDimension("customer-field-names", []string{"OPEN-CUSTOMER-FIELD-NAMES"},
		"The wire names of the registration inputs the document does not name.",
		quote("Names and required flags of the additional registration fields: not shown"),
		"customer-fields-camel-case", "phoneCountryCode, dateOfBirth, idType, idNumber, address, city, state, postalCode, country.")
	vCustomerSnake = dCustomerFields.setting("customer-fields-snake-case", "The additional inputs are phone_country_code, date_of_birth, id_type, id_number and postal_code (address, city, state, country as before).",
		`"Names and required flags of the additional registration fields: not shown"`,
		"customers:\n  fields:\n    phoneCountryCode: phone_country_code\n    dateOfBirth: date_of_birth\n    idType: id_type\n    idNumber: id_number\n    postalCode: postal_code\n", false)

	dCustomerApproval = declareDimension("customer-approval", []string{"OPEN-CUSTOMER-APPROVAL"},
		"When a registered customer can receive cards.",
		quote("After successful verification the returned customerId is used to issue cards", "Customer verification states: not shown"),
		"customer-approved-at-once", "Verification approves a valid registration at once.")
	vApprovalDelayed = dCustomerApproval.setting("customer-approval-delayed", "Verification completes 2 seconds after registration (kycStatus PENDING until then); issuance before is refused with 400.",
		`"After successful verification the returned customerId is used to issue cards" (when verification completes is not shown)`, "", false)

	dCustomerListOrder = declareDimension("customer-list-order", []string{"OPEN-CUSTOMER-LIST-ORDER"},
		"The order of GET /cards/customers.",
		quote("Returns all cardholder customers registered under the merchant"),
		"customer-list-newest-first", "Newest first.")
	vCustListOldest = dCustomerListOrder.setting("customer-list-oldest-first", "GET /cards/customers lists the oldest customers first.",
		`"Returns all cardholder customers" (order not shown)`, "", false)
)

// variantState is what the settings remember beyond the sandbox's state.
type variantState struct {
	mu         sync.Mutex
	identities map[string]bool                // uniqueness keys in use
	approveAt  map[*customer]time.Time        // customer-approval-delayed
	failures   map[string][]time.Time         // token-lockout: failed exchanges per merchant id
	snapshots  map[*envState]*listingSnapshot // listing freshness
}

func newVariantState() *variantState {
	return &variantState{
		identities: map[string]bool{},
		approveAt:  map[*customer]time.Time{},
		failures:   map[string][]time.Time{},
		snapshots:  map[*envState]*listingSnapshot{},
	}
}

// phoneLengths are national-number lengths of a few country prefixes.
var phoneLengths = map[string]int{"+1": 10, "+44": 10, "+234": 10}

var reNameChars = regexp.MustCompile(`^[\p{L} '-]+$`)

// customerRules adds the registration rules' violations to v.
func (s *Server) customerRules(v *validator, c customerJSON) {
	if s.variants.on(vPhoneValidated) && c.PhoneNumber != "" {
		national := strings.TrimLeft(strings.TrimPrefix(c.PhoneNumber, c.PhoneCountryCode), "0")
		if n, ok := phoneLengths[c.PhoneCountryCode]; ok && len(national) != n {
			v.add("phoneNumber must be a valid phone number for " + c.PhoneCountryCode)
		}
	}
	if s.variants.on(vNamesLetters) {
		for name, val := range map[string]string{"firstName": c.FirstName, "lastName": c.LastName} {
			if val != "" && !reNameChars.MatchString(val) {
				v.add(name + " must contain only letters, spaces, apostrophes and hyphens")
			}
		}
	}
}

// claimIdentity records a new customer's unique inputs in st and reports
// the first already taken ("" when none); it claims nothing then.
func (s *Server) claimIdentity(st *envState, c customerJSON, idNumber string) string {
	v := &s.variants
	all := v.on(vUniqueIdentity)
	var keys, names []string
	add := func(on bool, kind, val string) {
		if on || all {
			keys = append(keys, kind+"\x00"+strings.ToLower(val))
			names = append(names, kind)
		}
	}
	add(v.on(vUniqueIDNumber), "identity document number", idNumber)
	add(v.on(vUniquePhone), "phone number", c.PhoneCountryCode+c.PhoneNumber)
	add(v.on(vUniqueEmail), "e-mail", c.Email)
	if len(keys) == 0 {
		return ""
	}
	prefix := st.m.id + "/" + st.env.String() + "/"
	vs := s.vstate
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

// refuseDuplicate answers the 409 of a taken identity input.
func (s *Server) refuseDuplicate(rc *reqCtx, what string) {
	s.writeError(rc, http.StatusConflict, "A customer with this "+what+" is already registered")
}

// pendApproval makes a new customer wait for verification
// (customer-approval-delayed); the record then says PENDING.
func (s *Server) pendApproval(cu *customer, now time.Time) {
	if !s.variants.on(vApprovalDelayed) {
		return
	}
	cu.rec.KYCStatus = "PENDING"
	s.vstate.mu.Lock()
	s.vstate.approveAt[cu] = now.Add(2 * time.Second)
	s.vstate.mu.Unlock()
}

// kycStatus is a customer's verification status at now: a pending one
// is approved once its time has come (customer-approval-delayed).
func (s *Server) kycStatus(cu *customer, now time.Time) string {
	if !s.variants.on(vApprovalDelayed) || cu.rec.KYCStatus != "PENDING" {
		return cu.rec.KYCStatus
	}
	s.vstate.mu.Lock()
	at, ok := s.vstate.approveAt[cu]
	s.vstate.mu.Unlock()
	if ok && !now.Before(at) {
		return "APPROVED"
	}
	return "PENDING"
}

// customerOrder returns the customers in listing order (newest first, or
// oldest first under customer-list-oldest-first).
func (s *Server) customerOrder(cs []*customer) []*customer {
	out := make([]*customer, len(cs))
	for i, c := range cs {
		if s.variants.on(vCustListOldest) {
			out[i] = c
		} else {
			out[len(cs)-1-i] = c
		}
	}
	return out
}

// customerNames are the wire names of the registration inputs whose names
// are not shown, under the field-name settings.
type customerNames struct{ cc, dob, idType, idNumber, postal string }

func (s *Server) customerNames() customerNames {
	if s.variants.on(vCustomerSnake) {
		return customerNames{"phone_country_code", "date_of_birth", "id_type", "id_number", "postal_code"}
	}
	return customerNames{"phoneCountryCode", "dateOfBirth", "idType", "idNumber", "postalCode"}
}
