package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// handleConfig is GET /cards/config.
func (s *Server) handleConfig(rc *reqCtx) {
	st := rc.st
	st.mu.RLock()
	vault := s.listedVault(st, rc.now)
	st.mu.RUnlock()
	if s.faults.On(fault.ConfigVaultStale) {
		vault = seedVault
	}
	env := st.env.String()
	if s.faults.On(fault.ConfigEnvAlwaysTest) {
		env = EnvTest.String()
	}
	s.writeA(rc, http.StatusOK, configJSON{
		Environment:   env,
		CreationFee:   creationFee,
		FundFee:       fundFee,
		WithdrawalFee: withdrawalFee,
		MinFunding:    minFunding,
		ExchangeRate:  exchangeRate,
		VaultBalance:  amount(vault),
	})
}

// handleIssueCard is POST /cards: the vault pays creationFee + amount.
func (s *Server) handleIssueCard(rc *reqCtx) {
	req, ok := s.parseIssue(rc)
	if !ok {
		return
	}
	c := newCard(rc.now, req.brand, s.cardName(req.name), req.theme, req.billing)
	c.id, c.customerID, c.frozen = s.cardID(c.id), req.custID, s.variants.On(variant.IssuedFrozen)
	c.balance = s.initialBalance(req.amt)
	if s.variants.On(variant.LimitsReplaceDefaults) {
		c.limits = s.programLimits()
	}
	if req.hasRef {
		c.ref, c.refLower = req.ref, strings.ToLower(req.ref)
	}
	s.storeIssued(rc, c, req.amt)
}

// issueRequest is a validated POST /cards body.
type issueRequest struct {
	custID, name, ref, brand, theme string
	hasRef                          bool
	amt                             money.Amount
	billing                         Address
}

// parseIssue reads and validates the issuance body; on failure it has
// answered.
func (s *Server) parseIssue(rc *reqCtx) (req issueRequest, ok bool) {
	b, ok := s.readBody(rc)
	if !ok || s.issueChecksFirst(rc, b) {
		return req, false
	}
	v := validate.Of(b)
	req.custID = s.customerIDOf(&v)
	req.name = v.Str("nameOnCard", true, maxShort)
	minAmt := money.Amount(minFunding)
	if s.faults.On(fault.IssueMinOffByCent) {
		minAmt-- // 0.99 accepted
	}
	req.amt, _ = v.Amount("amount", true, minAmt, false)
	req.ref, req.hasRef = v.OptStr("reference", false, maxShort)
	if req.hasRef {
		v.Match("reference", req.ref, reReference, "must contain only letters, digits, '.', '_' or '-'")
		if req.ref == "" {
			v.Add("reference should not be empty")
		}
	}
	req.brand = s.issueBrand(&v)
	theme, hasTheme := v.OptStr("colorTheme", false, maxShort)
	if !hasTheme || theme == "" {
		theme = "midnight"
	}
	req.theme = theme
	req.billing = parseBilling(&v)
	s.issueRules(&v, req)
	return req, !s.invalid(rc, &v)
}

// issueBrand validates cardBrand, defaulting it when absent.
func (s *Server) issueBrand(v *validate.Fields) string {
	brand, has := v.OptStr("cardBrand", false, maxShort)
	switch {
	case !has && s.variants.On(variant.BrandMastercard):
		return "MASTERCARD"
	case !has:
		return "VISA"
	case brand == "":
		v.Add("cardBrand must be one of the following values: VISA, MASTERCARD")
	default:
		v.OneOf("cardBrand", brand, "VISA", "MASTERCARD")
	}
	return brand
}

// parseBilling validates the optional billingAddress (default: the
// sandbox's address); its errors are prefixed with billingAddress.
func parseBilling(v *validate.Fields) Address {
	ob, has := v.Object("billingAddress")
	if !has {
		return defaultBilling
	}
	bv := validate.Of(ob)
	billing := Address{
		Street:     bv.Str("street", true, maxText),
		City:       bv.Str("city", true, maxText),
		State:      bv.Str("state", true, maxText),
		PostalCode: bv.Str("postalCode", true, maxShort),
		Country:    bv.Str("country", true, maxShort),
	}
	bv.Match("country", billing.Country, reCountry2, "must be a 2-letter upper-case country code")
	for _, e := range bv.Errs() {
		v.Add("billingAddress." + e)
	}
	return billing
}

// storeIssued charges the vault and stores c under the merchant's lock,
// then answers: 201, a duplicate-reference replay or conflict, an unknown
// customer or an insufficient vault.
func (s *Server) storeIssued(rc *reqCtx, c *card, amt money.Amount) {
	st := rc.st
	st.mu.Lock()
	if st.custByID[c.customerID] == nil && !s.faults.On(fault.IssueUnknownCustomer) {
		st.mu.Unlock()
		s.writeError(rc, http.StatusNotFound, wording.CustNotFound)
		return
	}
	if cu := st.custByID[c.customerID]; cu != nil && s.kycStatus(cu, rc.now) != "APPROVED" {
		st.mu.Unlock()
		s.writeError(rc, http.StatusBadRequest, "Customer identity verification is not approved")
		return
	}
	if full, max := s.cardsPerCustomerFull(st, c.customerID); full {
		st.mu.Unlock()
		s.writeError(rc, http.StatusBadRequest, "Customer already holds the maximum of "+itoa(max)+" cards")
		return
	}
	if prev := st.cardByRef[c.ref]; prev != nil && s.variants.On(variant.CardDupReplay) {
		out := prev.json()
		st.mu.Unlock()
		s.writeA(rc, http.StatusOK, out) // idempotent replay of the original card
		return
	}
	if (st.cardByRef[c.ref] != nil || st.cardByID[c.ref] != nil) && !s.faults.On(fault.IssueDupRef) {
		st.mu.Unlock()
		s.writeError(rc, http.StatusConflict, "Card with reference '"+c.ref+"' already exists")
		return
	}
	total := int64(amt) + creationFee
	need := total
	if s.faults.On(fault.IssueVaultExclFee) {
		need = int64(amt)
	}
	if st.vault < need || (s.faults.On(fault.IssueVaultExactRefused) && st.vault == need) {
		avail := st.vault
		st.mu.Unlock()
		s.vaultShort(rc, amt, total, avail)
		return
	}
	if s.faults.On(fault.IssueNoCreationFee) {
		total = int64(amt)
	}
	st.vault -= total
	st.fees += creationFee
	st.cards = append(st.cards, c)
	st.cardByID[c.id] = c
	st.cardByRef[c.ref] = c
	out := c.json()
	st.mu.Unlock()
	s.writeA(rc, http.StatusCreated, out)
}

// vaultShort answers the 400 of an issuance the vault cannot pay for.
func (s *Server) vaultShort(rc *reqCtx, amt money.Amount, total, avail int64) {
	if s.faults.On(fault.IssueVaultMsgNoTotal) {
		s.writeError(rc, http.StatusBadRequest, "Insufficient vault balance: available "+amount(avail).String()+" USD")
		return
	}
	s.writeError(rc, http.StatusBadRequest, fmt.Sprintf(
		"Insufficient vault balance: required %s USD (funding %s + issuance fee %s), available %s USD",
		amount(total), amt, amount(creationFee), amount(avail)))
}

// newCard builds a card with a fresh Luhn-valid PAN, CVV and expiry.
func newCard(now time.Time, brand, name, theme string, billing Address) *card {
	prefix := "4"
	if brand == "MASTERCARD" {
		prefix = "5" + ids.DigitIn("12345")
	}
	body := prefix + ids.Digits(15-len(prefix))
	pan := body + string(rune('0'+luhnCheck(body)))
	exp := now.UTC()
	id := "crd_" + ids.Hex(12)
	ref := "card_" + ids.Hex(8)
	at := ts(now)
	return &card{
		id: id, ref: ref, refLower: ref,
		brand:      brand,
		pan:        pan,
		panGrouped: pan[0:4] + " " + pan[4:8] + " " + pan[8:12] + " " + pan[12:16],
		maskedPan:  pan[:6] + "******" + pan[12:],
		last4:      pan[12:],
		cvv:        ids.Digits(3),
		expMonth:   fmt.Sprintf("%02d", int(exp.Month())),
		expYear:    fmt.Sprintf("%04d", exp.Year()+3),
		nameOnCard: name,
		nameLower:  strings.ToLower(name),
		billing:    billing,
		colorTheme: theme,
		createdAt:  at,
		updatedAt:  at,
	}
}

// luhnCheck returns the check digit making body+digit Luhn-valid.
func luhnCheck(body string) int {
	sum := 0
	double := true // the rightmost body digit is doubled once the check digit is appended
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return (10 - sum%10) % 10
}

func (c *card) status() string {
	if c.frozen {
		return "FROZEN"
	}
	return "ACTIVE"
}

// json renders the card; the caller holds the state lock.
func (c *card) json() cardJSON {
	return cardJSON{
		ID:             c.id,
		CardType:       "VIRTUAL",
		CardBrand:      c.brand,
		MaskedPan:      c.maskedPan,
		NameOnCard:     c.nameOnCard,
		BalanceAmount:  money.Amount(c.balance),
		Currency:       "USD",
		Status:         c.status(),
		CreatedStatus:  "COMPLETED",
		Reference:      c.ref,
		BillingAddress: c.billing,
		ColorTheme:     c.colorTheme,
		CreatedAt:      c.createdAt,
		UpdatedAt:      c.updatedAt,
	}
}

// handleListCards is GET /cards with status, search and limit, newest first.
func (s *Server) handleListCards(rc *reqCtx) {
	q := rc.r.URL.Query()
	v := validate.Of(nil)
	status := q.Get("status")
	if status == "" {
		status = "ALL"
		if s.variants.On(variant.ListDefaultActive) {
			status = "ACTIVE"
		}
	}
	v.OneOf("status", status, "ACTIVE", "FROZEN", "ALL")
	if s.faults.On(fault.ListAllActiveOnly) && q.Get("status") == "ALL" {
		status = "ACTIVE"
	}
	limit := int64(50)
	if ls, has := q["limit"]; has {
		maxLimit := int64(100)
		switch {
		case s.variants.On(variant.ListMax50):
			maxLimit = 50
		case s.variants.On(variant.ListClamp50):
			maxLimit = 1 << 30
		}
		limit, _ = v.CheckInt("limit", ls[0], 1, maxLimit)
		if s.variants.On(variant.ListClamp50) {
			limit = min(limit, 50)
		}
	} else if s.faults.On(fault.ListNoDefaultLimit) {
		limit = 1 << 30
	}
	search := strings.ToLower(strings.TrimSpace(q.Get("search")))
	if len(search) > maxText {
		v.Add("search must be shorter than or equal to " + itoa(maxText) + " characters")
	}
	if s.invalid(rc, &v) {
		return
	}
	if s.faults.On(fault.ListIgnoresLimit) {
		limit = 1 << 30
	}
	if s.faults.On(fault.ListStatusIgnored) && status != "ALL" {
		status = "ALL"
	}
	matchLast4 := !s.faults.On(fault.ListSearchNoLast4)
	st := rc.st
	st.mu.RLock()
	out := make([]cardJSON, 0, min(int(limit), len(st.cards)))
	if s.listingVaried() {
		out = s.listCardsVariant(st, rc.now, out, status, strings.TrimSpace(q.Get("search")), limit)
	} else {
		out = listCardsOf(st, out, status, search, matchLast4, limit)
	}
	st.mu.RUnlock()
	if s.faults.On(fault.ListTenantLeak) {
		for _, m := range rc.world.merchants {
			if o := m.envs[st.env]; o != st {
				o.mu.RLock()
				out = listCardsOf(o, out, status, search, matchLast4, limit)
				o.mu.RUnlock()
			}
		}
	}
	s.writeA(rc, http.StatusOK, out)
}

// listCardsOf appends st's cards matching status and search, newest first,
// until out holds limit cards; the caller holds st's lock.
func listCardsOf(st *envState, out []cardJSON, status, search string, matchLast4 bool, limit int64) []cardJSON {
	for i := len(st.cards) - 1; i >= 0 && int64(len(out)) < limit; i-- {
		c := st.cards[i]
		if (status == "ACTIVE" && c.frozen) || (status == "FROZEN" && !c.frozen) {
			continue
		}
		if search != "" && (!matchLast4 || c.last4 != search) &&
			!strings.Contains(c.nameLower, search) && !strings.Contains(c.refLower, search) {
			continue
		}
		out = append(out, c.json())
	}
	return out
}

// handleGetCard is GET /cards/{id}: by id or reference, balance in real time.
func (s *Server) handleGetCard(rc *reqCtx) {
	st := rc.st
	st.mu.RLock()
	c := st.findCard(rc.p1)
	var out cardJSON
	var pan, cvv string
	if c != nil {
		out = c.json()
		pan, cvv = c.panGrouped, c.cvv
	}
	st.mu.RUnlock()
	if c != nil && s.faults.On(fault.CardLeaksCredentials) {
		s.writeA(rc, http.StatusOK, struct {
			cardJSON
			CardNumber string `json:"cardNumber"`
			CVV        string `json:"cvv"`
		}{out, pan, cvv})
		return
	}
	if c == nil && s.faults.On(fault.CrossMerchantCardRead) {
		c, out = s.findCardAnywhere(rc.world, rc.p1)
	}
	if c == nil {
		s.writeError(rc, http.StatusNotFound, wording.CardNotFound)
		return
	}
	s.writeA(rc, http.StatusOK, out)
}

// findCardAnywhere searches every merchant and environment by card id.
func (s *Server) findCardAnywhere(w *world, id string) (*card, cardJSON) {
	for _, m := range w.merchants {
		for _, st := range m.envs {
			st.mu.RLock()
			c := st.cardByID[id]
			var out cardJSON
			if c != nil {
				out = c.json()
			}
			st.mu.RUnlock()
			if c != nil {
				return c, out
			}
		}
	}
	return nil, cardJSON{}
}

// handleSecure is GET /cards/{id}/secure: full credentials of an ACTIVE card.
func (s *Server) handleSecure(rc *reqCtx) {
	s.readCard(rc, rc.st, func(c *card) reply {
		if c.frozen && !s.faults.On(fault.SecureRevealsFrozen) {
			return s.fail(rc, http.StatusBadRequest, wording.FrozenSecure)
		}
		out := secureDetails(c)
		return func() { s.writeSecure(rc, out) }
	})
}

// secureDetails are c's full credentials; the caller holds the state lock.
func secureDetails(c *card) secureJSON {
	return secureJSON{
		CardID:         c.id,
		Reference:      c.ref,
		MaskedPan:      c.maskedPan,
		CardNumber:     c.panGrouped,
		Pan:            c.panGrouped,
		CVV:            c.cvv,
		ExpiryMonth:    c.expMonth,
		ExpiryYear:     c.expYear,
		ExpirationDate: c.expMonth + "/" + c.expYear[2:],
		NameOnCard:     c.nameOnCard,
		BillingAddress: c.billing,
	}
}

// writeSecure answers the secure details.
func (s *Server) writeSecure(rc *reqCtx, out secureJSON) {
	if s.faults.On(fault.SecureExpMismatch) {
		// Well-formed MM/YY, but of the issuance year (expiry is three years on).
		y := int(out.ExpiryYear[2]-'0')*10 + int(out.ExpiryYear[3]-'0')
		out.ExpirationDate = fmt.Sprintf("%s/%02d", out.ExpiryMonth, (y+97)%100)
	}
	// PCI data: never to be kept by a cache or a browser.
	s.setSecureCache(rc.w.Header())
	s.writeA(rc, http.StatusOK, out)
}
