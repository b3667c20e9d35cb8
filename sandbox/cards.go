package sandbox

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// handleConfig is GET /cards/config.
func (s *Server) handleConfig(rc *answer.Req) {
	st := rc.St
	st.Mu.RLock()
	vault := s.set.ListedVault(st, rc.Now)
	st.Mu.RUnlock()
	if s.faults.On(fault.ConfigVaultStale) {
		vault = seedVault
	}
	env := st.Env.String()
	if s.faults.On(fault.ConfigEnvAlwaysTest) {
		env = state.EnvTest.String()
	}
	rc.EnvelopeA(http.StatusOK, configJSON{
		Environment:   env,
		CreationFee:   state.CreationFee,
		FundFee:       state.FundFee,
		WithdrawalFee: state.WithdrawalFee,
		MinFunding:    state.MinFunding,
		ExchangeRate:  state.ExchangeRate,
		VaultBalance:  amount(vault),
	})
}

// handleIssueCard is POST /cards: the vault pays creationFee + amount.
func (s *Server) handleIssueCard(rc *answer.Req) {
	req, ok := s.parseIssue(rc)
	if !ok {
		return
	}
	c := state.NewCard(rc.Now, req.brand, s.set.CardName(req.name), req.theme, req.billing)
	c.ID, c.CustomerID, c.Frozen = s.set.CardID(c.ID), req.custID, s.variants.On(variant.IssuedFrozen)
	c.Balance = s.set.InitialBalance(req.amt)
	if s.variants.On(variant.LimitsReplaceDefaults) {
		c.Limits = s.set.ProgramLimits()
	}
	if req.hasRef {
		c.Ref, c.RefLower = req.ref, strings.ToLower(req.ref)
	}
	s.storeIssued(rc, c, req.amt)
}

// issueRequest is a validated POST /cards body.
type issueRequest struct {
	custID, name, ref, brand, theme string
	hasRef                          bool
	amt                             money.Amount
	billing                         state.Address
}

// parseIssue reads and validates the issuance body; on failure it has
// answered.
func (s *Server) parseIssue(rc *answer.Req) (req issueRequest, ok bool) {
	b, ok := rc.ReadBody()
	if !ok || s.issueChecksFirst(rc, b) {
		return req, false
	}
	v := validate.Of(b)
	req.custID = s.set.CustomerIDOf(&v)
	req.name = v.Str("nameOnCard", true, validate.MaxShort)
	minAmt := money.Amount(state.MinFunding)
	if s.faults.On(fault.IssueMinOffByCent) {
		minAmt-- // 0.99 accepted
	}
	req.amt, _ = v.Amount("amount", true, minAmt, false)
	req.ref, req.hasRef = v.OptStr("reference", false, validate.MaxShort)
	if req.hasRef {
		v.Match("reference", req.ref, validate.Reference, "must contain only letters, digits, '.', '_' or '-'")
		if req.ref == "" {
			v.Add("reference should not be empty")
		}
	}
	req.brand = s.issueBrand(&v)
	theme, hasTheme := v.OptStr("colorTheme", false, validate.MaxShort)
	if !hasTheme || theme == "" {
		theme = "midnight"
	}
	req.theme = theme
	req.billing = parseBilling(&v)
	s.set.IssueRules(&v, req.name, req.ref, req.hasRef, req.amt)
	return req, !rc.Invalid(&v)
}

// issueBrand validates cardBrand, defaulting it when absent.
func (s *Server) issueBrand(v *validate.Fields) string {
	brand, has := v.OptStr("cardBrand", false, validate.MaxShort)
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
func parseBilling(v *validate.Fields) state.Address {
	ob, has := v.Object("billingAddress")
	if !has {
		return defaultBilling
	}
	bv := validate.Of(ob)
	billing := state.Address{
		Street:     bv.Str("street", true, validate.MaxText),
		City:       bv.Str("city", true, validate.MaxText),
		State:      bv.Str("state", true, validate.MaxText),
		PostalCode: bv.Str("postalCode", true, validate.MaxShort),
		Country:    bv.Str("country", true, validate.MaxShort),
	}
	bv.Match("country", billing.Country, validate.Country2, "must be a 2-letter upper-case country code")
	for _, e := range bv.Errs() {
		v.Add("billingAddress." + e)
	}
	return billing
}

// storeIssued charges the vault and stores c under the merchant's lock,
// then answers: 201, a duplicate-reference replay or conflict, an unknown
// customer or an insufficient vault.
func (s *Server) storeIssued(rc *answer.Req, c *state.Card, amt money.Amount) {
	st := rc.St
	st.Mu.Lock()
	if st.CustByID[c.CustomerID] == nil && !s.faults.On(fault.IssueUnknownCustomer) {
		st.Mu.Unlock()
		rc.Error(http.StatusNotFound, wording.CustNotFound)
		return
	}
	if cu := st.CustByID[c.CustomerID]; cu != nil && s.set.KycStatus(cu, rc.Now) != "APPROVED" {
		st.Mu.Unlock()
		rc.Error(http.StatusBadRequest, "Customer identity verification is not approved")
		return
	}
	if full, max := s.set.CardsPerCustomerFull(st, c.CustomerID); full {
		st.Mu.Unlock()
		rc.Error(http.StatusBadRequest, "Customer already holds the maximum of "+itoa(max)+" cards")
		return
	}
	if prev := st.CardByRef[c.Ref]; prev != nil && s.variants.On(variant.CardDupReplay) {
		out := prev.JSON()
		st.Mu.Unlock()
		rc.EnvelopeA(http.StatusOK, out) // idempotent replay of the original card
		return
	}
	if (st.CardByRef[c.Ref] != nil || st.CardByID[c.Ref] != nil) && !s.faults.On(fault.IssueDupRef) {
		st.Mu.Unlock()
		rc.Error(http.StatusConflict, "Card with reference '"+c.Ref+"' already exists")
		return
	}
	total := int64(amt) + state.CreationFee
	need := total
	if s.faults.On(fault.IssueVaultExclFee) {
		need = int64(amt)
	}
	if st.Vault < need || (s.faults.On(fault.IssueVaultExactRefused) && st.Vault == need) {
		avail := st.Vault
		st.Mu.Unlock()
		s.vaultShort(rc, amt, total, avail)
		return
	}
	if s.faults.On(fault.IssueNoCreationFee) {
		total = int64(amt)
	}
	st.Vault -= total
	st.Fees += state.CreationFee
	st.Cards = append(st.Cards, c)
	st.CardByID[c.ID] = c
	st.CardByRef[c.Ref] = c
	out := c.JSON()
	st.Mu.Unlock()
	rc.EnvelopeA(http.StatusCreated, out)
}

// vaultShort answers the 400 of an issuance the vault cannot pay for.
func (s *Server) vaultShort(rc *answer.Req, amt money.Amount, total, avail int64) {
	if s.faults.On(fault.IssueVaultMsgNoTotal) {
		rc.Error(http.StatusBadRequest, "Insufficient vault balance: available "+amount(avail).String()+" USD")
		return
	}
	rc.Error(http.StatusBadRequest, fmt.Sprintf(
		"Insufficient vault balance: required %s USD (funding %s + issuance fee %s), available %s USD",
		amount(total), amt, amount(state.CreationFee), amount(avail)))
}

// handleListCards is GET /cards with status, search and limit, newest first.
func (s *Server) handleListCards(rc *answer.Req) {
	q := rc.R.URL.Query()
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
	if len(search) > validate.MaxText {
		v.Add("search must be shorter than or equal to " + itoa(validate.MaxText) + " characters")
	}
	if rc.Invalid(&v) {
		return
	}
	if s.faults.On(fault.ListIgnoresLimit) {
		limit = 1 << 30
	}
	if s.faults.On(fault.ListStatusIgnored) && status != "ALL" {
		status = "ALL"
	}
	matchLast4 := !s.faults.On(fault.ListSearchNoLast4)
	st := rc.St
	st.Mu.RLock()
	out := make([]state.CardJSON, 0, min(int(limit), len(st.Cards)))
	if s.set.ListingVaried() {
		out = s.set.ListCardsVariant(st, rc.Now, out, status, strings.TrimSpace(q.Get("search")), limit)
	} else {
		out = listCardsOf(st, out, status, search, matchLast4, limit)
	}
	st.Mu.RUnlock()
	if s.faults.On(fault.ListTenantLeak) {
		for _, m := range rc.World.Merchants {
			if o := m.Envs[st.Env]; o != st {
				o.Mu.RLock()
				out = listCardsOf(o, out, status, search, matchLast4, limit)
				o.Mu.RUnlock()
			}
		}
	}
	rc.EnvelopeA(http.StatusOK, out)
}

// listCardsOf appends st's cards matching status and search, newest first,
// until out holds limit cards; the caller holds st's lock.
func listCardsOf(st *state.EnvState, out []state.CardJSON, status, search string, matchLast4 bool, limit int64) []state.CardJSON {
	for i := len(st.Cards) - 1; i >= 0 && int64(len(out)) < limit; i-- {
		c := st.Cards[i]
		if (status == "ACTIVE" && c.Frozen) || (status == "FROZEN" && !c.Frozen) {
			continue
		}
		if search != "" && (!matchLast4 || c.Last4 != search) &&
			!strings.Contains(c.NameLower, search) && !strings.Contains(c.RefLower, search) {
			continue
		}
		out = append(out, c.JSON())
	}
	return out
}

// handleGetCard is GET /cards/{id}: by id or reference, balance in real time.
func (s *Server) handleGetCard(rc *answer.Req) {
	st := rc.St
	st.Mu.RLock()
	c := st.FindCard(rc.ID)
	var out state.CardJSON
	var pan, cvv string
	if c != nil {
		out = c.JSON()
		pan, cvv = c.PANGrouped, c.CVV
	}
	st.Mu.RUnlock()
	if c != nil && s.faults.On(fault.CardLeaksCredentials) {
		rc.EnvelopeA(http.StatusOK, struct {
			state.CardJSON
			CardNumber string `json:"cardNumber"`
			CVV        string `json:"cvv"`
		}{out, pan, cvv})
		return
	}
	if c == nil && s.faults.On(fault.CrossMerchantCardRead) {
		c, out = rc.World.FindCardAnywhere(rc.ID)
	}
	if c == nil {
		rc.Error(http.StatusNotFound, wording.CardNotFound)
		return
	}
	rc.EnvelopeA(http.StatusOK, out)
}

// handleSecure is GET /cards/{id}/secure: full credentials of an ACTIVE card.
func (s *Server) handleSecure(rc *answer.Req) {
	s.readCard(rc, rc.St, func(c *state.Card) reply {
		if c.Frozen && !s.faults.On(fault.SecureRevealsFrozen) {
			return s.fail(rc, http.StatusBadRequest, wording.FrozenSecure)
		}
		out := state.SecureDetails(c)
		return func() { s.writeSecure(rc, out) }
	})
}

// writeSecure answers the secure details.
func (s *Server) writeSecure(rc *answer.Req, out state.SecureJSON) {
	if s.faults.On(fault.SecureExpMismatch) {
		// Well-formed MM/YY, but of the issuance year (expiry is three years on).
		y := int(out.ExpiryYear[2]-'0')*10 + int(out.ExpiryYear[3]-'0')
		out.ExpirationDate = fmt.Sprintf("%s/%02d", out.ExpiryMonth, (y+97)%100)
	}
	// PCI data: never to be kept by a cache or a browser.
	s.set.SetSecureCache(rc.W.Header())
	rc.EnvelopeA(http.StatusOK, out)
}
