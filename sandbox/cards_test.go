package sandbox

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/sandbox/wording"
)

func TestConfig(t *testing.T) {
	h := newSbx(t, Options{})
	r := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200)
	want := map[string]string{"data.creationFee": "1.00", "data.fundFee": "1.00", "data.withdrawalFee": "0.05",
		"data.minFunding": "1.00", "data.exchangeRate": "1550.00", "data.vaultBalance": "10000.00"}
	for k, v := range want {
		if got := r.num(k); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if r.s("data.environment") != "TEST" || r.s("path") != "/v1/merchant/cards/config" {
		t.Fatalf("config: %s", r.body)
	}
}

func TestCustomers(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	r := h.api("POST", "/cards/customers", tok, validCustomer).want(201)
	if !strings.HasPrefix(r.s("data.customerId"), "cus_") || r.s("data.kycStatus") != "APPROVED" ||
		r.s("data.idNumberLast4") != "5678" || r.has("data.idNumber") {
		t.Fatalf("customer record: %s", r.body)
	}
	second := h.customer(tok)
	l := h.api("GET", "/cards/customers", tok, nil).want(200)
	if items := l.list("data"); len(items) != 2 || l.s("data.0.customerId") != second {
		t.Fatalf("listing, newest first: %s", l.body)
	}
	// Another merchant sees none of them.
	if n := len(h.api("GET", "/cards/customers", h.token(bravo, bravoTest), nil).want(200).list("data")); n != 0 {
		t.Fatalf("bravo sees %d customers", n)
	}

	bad := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range validCustomer {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		field string
		value any
		msg   string
	}{
		{"firstName", nil, "firstName should not be empty"},
		{"lastName", "  ", "lastName should not be empty"},
		{"email", "not-an-email", "email must be an email"},
		{"phoneNumber", "12", "phoneNumber must be a valid phone number"},
		{"phoneCountryCode", "234", "phoneCountryCode must be a + followed by 1 to 4 digits"},
		{"dateOfBirth", "1990-02-30", "dateOfBirth must be a valid ISO 8601 date"},
		{"dateOfBirth", "2099-01-01", "dateOfBirth must be a date in the past"},
		{"idType", "ssn", "idType must be one of the following values: national_id, passport, drivers_license"},
		{"idNumber", nil, "idNumber should not be empty"},
		{"address", 42, "address must be a string"},
		{"city", nil, "city should not be empty"},
		{"state", nil, "state should not be empty"},
		{"postalCode", nil, "postalCode should not be empty"},
		{"country", "NG", "country must be a 3-letter upper-case country code"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s=%v", tt.field, tt.value), func(t *testing.T) {
			h.t = t
			h.api("POST", "/cards/customers", tok, bad(tt.field, tt.value)).wantValidation(tt.msg)
		})
	}
}

var (
	reCardID = regexp.MustCompile(`^crd_[0-9a-f]+$`)
	reMasked = regexp.MustCompile(`^[0-9]{6}\*{6}[0-9]{4}$`)
	reTS     = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	rePAN    = regexp.MustCompile(`^[0-9]{4} [0-9]{4} [0-9]{4} [0-9]{4}$`)
)

func luhnValid(pan string) bool {
	sum := 0
	for i := range len(pan) {
		d := int(pan[len(pan)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

func TestIssueCard(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	cust := h.customer(tok)
	r := h.card(tok, cust, "25.50")
	c := "data."
	if !reCardID.MatchString(r.s(c+"id")) || r.s(c+"cardType") != "VIRTUAL" || r.s(c+"cardBrand") != "VISA" ||
		!reMasked.MatchString(r.s(c+"maskedPan")) || r.num(c+"balanceAmount") != "25.50" ||
		r.s(c+"currency") != "USD" || r.s(c+"status") != "ACTIVE" || r.s(c+"createdStatus") != "COMPLETED" ||
		!strings.HasPrefix(r.s(c+"reference"), "card_") || r.s(c+"colorTheme") != "midnight" ||
		r.s(c+"billingAddress.country") != "US" || !reTS.MatchString(r.s(c+"createdAt")) || !reTS.MatchString(r.s(c+"updatedAt")) {
		t.Fatalf("card: %s", r.body)
	}
	// Vault paid amount + creation fee.
	if v := h.api("GET", "/cards/config", tok, nil).num("data.vaultBalance"); v != "9973.50" {
		t.Fatalf("vault after issuing 25.50: %s", v)
	}
	mc := h.card(tok, cust, "1", `,"cardBrand":"MASTERCARD","reference":"mc-1","colorTheme":"gold","billingAddress":{"street":"2 Rue","city":"Paris","state":"IDF","postalCode":"75001","country":"FR"}`)
	if mc.s("data.cardBrand") != "MASTERCARD" || mc.s("data.reference") != "mc-1" || mc.s("data.colorTheme") != "gold" ||
		mc.s("data.billingAddress.city") != "Paris" || mc.s("data.maskedPan")[0] != '5' {
		t.Fatalf("mastercard: %s", mc.body)
	}

	tests := []struct {
		name, body string
		code       int
		msg        string
	}{
		{"below minimum", `{"customerId":"%s","nameOnCard":"A","amount":0.99}`, 400, "amount must not be less than 1"},
		{"negative", `{"customerId":"%s","nameOnCard":"A","amount":-5}`, 400, "amount must not be less than 1"},
		{"three decimals", `{"customerId":"%s","nameOnCard":"A","amount":1.001}`, 400, "amount must have at most 2 decimal places"},
		{"string amount", `{"customerId":"%s","nameOnCard":"A","amount":"10"}`, 400, "amount must be a number"},
		{"huge", `{"customerId":"%s","nameOnCard":"A","amount":1e30}`, 400, "amount must not be greater than 1000000000"},
		{"above max", `{"customerId":"%s","nameOnCard":"A","amount":1000000000.01}`, 400, "amount must not be greater than 1000000000"},
		{"empty name", `{"customerId":"%s","nameOnCard":"","amount":5}`, 400, "nameOnCard should not be empty"},
		{"missing customer id", `{"nameOnCard":"A","amount":5}%.0s`, 400, "customerId should not be empty"},
		{"bad brand", `{"customerId":"%s","nameOnCard":"A","amount":5,"cardBrand":"AMEX"}`, 400, "cardBrand must be one of the following values: VISA, MASTERCARD"},
		{"bad reference", `{"customerId":"%s","nameOnCard":"A","amount":5,"reference":"a b"}`, 400, "reference must contain only"},
		{"bad billing country", `{"customerId":"%s","nameOnCard":"A","amount":5,"billingAddress":{"street":"s","city":"c","state":"s","postalCode":"p","country":"USA"}}`, 400, "billingAddress.country must be a 2-letter"},
		{"unknown customer", `{"customerId":"cus_nope%.0s","nameOnCard":"A","amount":5}`, 404, wording.CustNotFound},
		{"duplicate reference", `{"customerId":"%s","nameOnCard":"A","amount":5,"reference":"mc-1"}`, 409, "already exists"},
		{"insufficient vault", `{"customerId":"%s","nameOnCard":"A","amount":20000}`, 400,
			"Insufficient vault balance: required 20001.00 USD (funding 20000.00 + issuance fee 1.00), available 9971.50 USD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			h.api("POST", "/cards", tok, fmt.Sprintf(tt.body, cust)).wantError(tt.code, tt.msg)
		})
	}
	// A customer of another merchant is unknown here.
	bcust := h.customer(h.token(bravo, bravoTest))
	h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"A","amount":5}`, bcust)).wantError(404, wording.CustNotFound)
}

func TestListCards(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	cust := h.customer(tok)
	var ids []string
	for i := range 5 {
		r := h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"Holder %d","amount":2,"reference":"ref-%d"}`, cust, i, i)).want(201)
		ids = append(ids, r.s("data.id"))
	}
	h.api("PATCH", "/cards/"+ids[1]+"/status", tok, `{"status":"FROZEN"}`).want(200)
	last4 := h.api("GET", "/cards/"+ids[3], tok, nil).s("data.maskedPan")[12:]

	count := func(q string) (int, *resp) {
		r := h.api("GET", "/cards"+q, tok, nil).want(200)
		return len(r.list("data")), r
	}
	tests := []struct {
		q     string
		n     int
		first string
	}{
		{"", 5, ids[4]},
		{"?status=ALL", 5, ids[4]},
		{"?status=ACTIVE", 4, ids[4]},
		{"?status=FROZEN", 1, ids[1]},
		{"?limit=2", 2, ids[4]},
		{"?search=holder%202", 1, ids[2]},
		{"?search=REF-0", 1, ids[0]},
		{"?search=" + last4, 1, ids[3]},
		{"?search=nothing", 0, ""},
		{"?status=FROZEN&search=holder", 1, ids[1]},
	}
	for _, tt := range tests {
		n, r := count(tt.q)
		if n != tt.n || (n > 0 && r.s("data.0.id") != tt.first) {
			t.Errorf("GET /cards%s: %d cards (want %d), first %v: %s", tt.q, n, tt.n, tt.first, r.body)
		}
	}
	for _, q := range []string{"?status=active", "?status=DELETED", "?limit=0", "?limit=101", "?limit=abc", "?limit=2.5", "?limit=-1", "?limit=99999999999999999999"} {
		h.api("GET", "/cards"+q, tok, nil).want(400)
	}
	// Default limit 50.
	for range 50 {
		h.api("POST", "/cards", tok, fmt.Sprintf(`{"customerId":%q,"nameOnCard":"X","amount":1}`, cust)).want(201)
	}
	if n, _ := count(""); n != 50 {
		t.Fatalf("default limit: %d", n)
	}
	if n, _ := count("?limit=100"); n != 55 {
		t.Fatalf("limit=100: %d", n)
	}
}

func TestGetCardAndIsolation(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "3", `,"reference":"mine"`).s("data.id")
	h.api("GET", "/cards/"+id, tok, nil).want(200)
	if r := h.api("GET", "/cards/mine", tok, nil).want(200); r.s("data.id") != id {
		t.Fatalf("by reference: %s", r.body)
	}
	others := []struct{ name, tok string }{
		{"bravo TEST", h.token(bravo, bravoTest)},
		{"alpha LIVE", h.token(alpha, alphaLive)},
	}
	for _, o := range others {
		for _, p := range []string{"/cards/" + id, "/cards/mine", "/cards/" + id + "/secure"} {
			h.api("GET", p, o.tok, nil).wantError(404, wording.CardNotFound)
		}
		h.api("POST", "/cards/"+id+"/withdraw", o.tok, `{"amount":1}`).wantError(404, wording.CardNotFound)
		h.api("PATCH", "/cards/"+id+"/status", o.tok, `{"status":"FROZEN"}`).wantError(404, wording.CardNotFound)
		if n := len(h.api("GET", "/cards", o.tok, nil).list("data")); n != 0 {
			t.Fatalf("%s lists %d cards of alpha TEST", o.name, n)
		}
	}
	h.api("GET", "/cards/crd_unknown", tok, nil).wantError(404, "Virtual card not found")
}

func TestSecure(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	card := h.card(tok, h.customer(tok), "3")
	id := card.s("data.id")
	r := h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
	pan := r.s("data.cardNumber")
	digits := strings.ReplaceAll(pan, " ", "")
	if !rePAN.MatchString(pan) || r.s("data.pan") != pan || !luhnValid(digits) ||
		card.s("data.maskedPan") != digits[:6]+"******"+digits[12:] || r.s("data.maskedPan") != card.s("data.maskedPan") ||
		len(r.s("data.cvv")) != 3 || r.s("data.expiryMonth") != "03" || r.s("data.expiryYear") != "2029" ||
		r.s("data.expirationDate") != "03/29" || r.s("data.cardId") != id || r.s("data.nameOnCard") != "Ada Lovelace" ||
		r.s("data.billingAddress.postalCode") != "94105" {
		t.Fatalf("secure: %s", r.body)
	}
	if r.hdr.Get("Cache-Control") != "no-store" {
		t.Fatalf("secure details may be cached: %v", r.hdr)
	}
	h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
	h.api("GET", "/cards/"+id+"/secure", tok, nil).wantError(400, wording.FrozenSecure)
	h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200)
	h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200)
	h.api("GET", "/cards/nope/secure", tok, nil).wantError(404, wording.CardNotFound)
}

func TestWithdraw(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	h.fake.Advance(61e9)
	r := h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":4.25}`).want(200)
	if r.s("data.message") != "Withdrew 4.25 USD to the vault" || r.num("data.card.balanceAmount") != "5.75" ||
		r.s("data.card.updatedAt") == r.s("data.card.createdAt") {
		t.Fatalf("withdraw: %s", r.body)
	}
	b := h.ctl("GET", "/merchants/mer_demo_alpha?environment=TEST", nil).want(200)
	// 10000 - 11 (issue) + 4.20 (4.25 - fee 0.05) = 9993.20; fees 1.00 + 0.05.
	if b.num("vaultBalance") != "9993.20" || b.num("feesCollected") != "1.05" || b.num("cardBalances") != "5.75" {
		t.Fatalf("balances: %s", b.body)
	}
	tests := []struct {
		name, body string
		code       int
		msg        string
	}{
		{"below minimum", `{"amount":0.09}`, 400, "amount must not be less than 0.1"},
		{"zero", `{"amount":0}`, 400, "amount must not be less than 0.1"},
		{"negative", `{"amount":-1}`, 400, "amount must not be less than 0.1"},
		{"missing", `{}`, 400, "amount should not be empty"},
		{"null", `{"amount":null}`, 400, "amount should not be empty"},
		{"bool", `{"amount":true}`, 400, "amount must be a number"},
		{"over balance", `{"amount":5.76}`, 400, "Insufficient card balance: requested 5.76 USD, available 5.75 USD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.t = t
			h.api("POST", "/cards/"+id+"/withdraw", tok, tt.body).wantError(tt.code, tt.msg)
		})
	}
	h.t = t
	// Frozen cards can still be swept, to exactly zero.
	h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
	if r := h.api("POST", "/cards/"+id+"/withdraw", tok, `{"amount":5.75}`).want(200); r.num("data.card.balanceAmount") != "0.00" {
		t.Fatalf("sweep to zero: %s", r.body)
	}
	h.api("POST", "/cards/nope/withdraw", tok, `{"amount":1}`).wantError(404, wording.CardNotFound)
}

func TestSpendLimits(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	r := h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":50,"dailyLimit":100.5}`).want(200)
	if r.s("data.message") != "Spend limits updated" || r.s("data.cardId") != id ||
		r.num("data.spendLimits.transactionLimit") != "50.00" || r.num("data.spendLimits.dailyLimit") != "100.50" ||
		r.get("data.spendLimits.monthlyLimit") != nil || r.get("data.spendLimits.allTimeLimit") != nil {
		t.Fatalf("limits: %s", r.body)
	}
	r = h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"allTimeLimit":1000}`).want(200)
	if r.num("data.spendLimits.transactionLimit") != "50.00" || r.num("data.spendLimits.allTimeLimit") != "1000.00" {
		t.Fatalf("unsupplied limits must keep their value: %s", r.body)
	}
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "at least one of"},
		{`{"dailyLimit":0}`, "dailyLimit must be a positive number"},
		{`{"monthlyLimit":-3}`, "monthlyLimit must be a positive number"},
		{`{"monthlyLimit":"3"}`, "monthlyLimit must be a number"},
		{`{"transactionLimit":1.234}`, "transactionLimit must have at most 2 decimal places"},
	} {
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, tt.body).wantValidation(tt.msg)
	}
	h.api("PUT", "/cards/nope/spend-limits", tok, `{"dailyLimit":1}`).wantError(404, wording.CardNotFound)
}

func TestCardStatus(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	tests := []struct {
		body, status, msg string
		code              int
	}{
		{`{"status":"FROZEN"}`, "FROZEN", "Card status updated to FROZEN", 200},
		{`{"status":"FROZEN"}`, "FROZEN", "Card status updated to FROZEN", 200}, // same status is fine
		{`{"status":"ACTIVE"}`, "ACTIVE", "Card status updated to ACTIVE", 200},
		{`{"status":"frozen"}`, "", "status must be one of the following values: ACTIVE, FROZEN", 400},
		{`{"status":"TERMINATED"}`, "", "status must be one of the following values: ACTIVE, FROZEN", 400},
		{`{"status":1}`, "", "status must be a string", 400},
		{`{}`, "", "status should not be empty", 400},
	}
	for _, tt := range tests {
		r := h.api("PATCH", "/cards/"+id+"/status", tok, tt.body)
		if tt.code != 200 {
			r.wantValidation(tt.msg)
			continue
		}
		r.want(200)
		if r.s("data.message") != tt.msg || r.s("data.card.status") != tt.status || r.num("data.card.balanceAmount") != "10.00" {
			t.Fatalf("%s: %s", tt.body, r.body)
		}
	}
}

func TestContact(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	id := h.card(tok, h.customer(tok), "10").s("data.id")
	for _, body := range []string{`{"email":"new@example.com"}`, `{"mobile":"08031234567"}`, `{"mobile":"+2348031234567","email":"x@y.io"}`} {
		r := h.api("PATCH", "/cards/"+id+"/contact", tok, body).want(200)
		if r.get("success") != true || r.s("message") != "Contact details updated" || r.get("data.success") != true ||
			r.s("data.message") != "Contact details updated with the card provider" || !reTS.MatchString(r.s("timestamp")) || r.has("status") {
			t.Fatalf("envelope B: %s", r.body)
		}
	}
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "at least one of email, mobile must be supplied"},
		{`{"email":"nope"}`, "email must be an email"},
		{`{"mobile":"12ab"}`, "mobile must be a valid phone number"},
		{`{"mobile":"++123456789"}`, "mobile must be a valid phone number"},
		{`{"email":5}`, "email must be a string"},
	} {
		h.api("PATCH", "/cards/"+id+"/contact", tok, tt.body).wantValidation(tt.msg)
	}
	h.api("PATCH", "/cards/nope/contact", tok, `{"email":"a@b.co"}`).wantError(404, wording.CardNotFound)
	// Works with LIVE credentials too.
	ltok := h.token(alpha, alphaLive)
	lid := h.card(ltok, h.customer(ltok), "2").s("data.id")
	h.api("PATCH", "/cards/"+lid+"/contact", ltok, `{"email":"live@example.com"}`).want(200)
}
