package sandbox

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
)

// Card behaviours the document leaves open: where fees fall, how a PUT of
// spend limits merges, and the business rules a card program may have.
var (
	dWithdrawalFee = declareDimension("withdrawal-fee", []string{"OPEN-WITHDRAWAL-FEE-SIDE"},
		"Which side pays the withdrawal fee.",
		quote("withdrawalFee | number | fee charged when balance is swept back to the vault"),
		"withdraw-fee-from-vault-credit", "The card pays the amount; the vault receives the amount less withdrawalFee.")
	vWithdrawFullCredit = dWithdrawalFee.setting("withdraw-credits-full-amount", "A withdrawal credits the vault the whole amount (the fee is waived).",
		`"withdrawalFee | fee charged when balance is swept back to the vault" (how it applies is not shown)`,
		"cards:\n  withdrawVaultCredit: amount\n", false)
	vWithdrawFeeOnCard = dWithdrawalFee.setting("withdraw-fee-from-card", "The card pays the amount plus withdrawalFee; the vault receives the whole amount (a withdrawal above balance less fee is refused).",
		`"withdrawalFee | fee charged when balance is swept back to the vault" (which side pays is not shown)`, "", false)

	dFundFee = declareDimension("fund-fee", []string{"OPEN-FUND-FEE"},
		"How fundFee applies to a new card.",
		quote("fundFee | number | fee charged per funding operation (percentage or amount)", "issuance deducts the creation fee plus the funding amount from the vault"),
		"fund-fee-not-on-issuance", "A new card's balance is the funding amount.")
	vInitialNetFundFee = dFundFee.setting("issuance-balance-net-of-fund-fee", "A new card's balance is the funding minus fundFee.",
		`"fundFee | fee charged per funding operation"; issuance "deducts the creation fee plus the funding amount from the vault"`,
		"issuance:\n  initialBalance: amount-minus-fund-fee\n", false)
	vFundFeePercent = dFundFee.setting("fund-fee-percent", "fundFee (1.00) is a percentage: a new card's balance is the funding less 1 % (rounded to the cent).",
		`"fundFee | fee charged per funding operation (percentage or amount)"`, "", false)

	dLimitsPut = declareDimension("spend-limits-put", []string{"OPEN-SPEND-LIMITS-PUT"},
		"Whether PUT spend-limits merges or replaces, and how an unset limit is shown.",
		quote("transactionLimit, dailyLimit, monthlyLimit, allTimeLimit, each an optional number in USD"),
		"spend-limits-put-merges", "Supplied limits replace theirs, the others keep their value; an unset limit is null.")
	vLimitsPutReplaces = dLimitsPut.setting("spend-limits-put-replaces", "PUT spend-limits replaces the whole set: limits not supplied become unset.",
		`PUT /cards/{id}/spend-limits: "each an optional number" (merge or replace is not shown)`, "", false)
	vLimitsReplaceDefaults = dLimitsPut.setting("spend-limits-put-restores-defaults", "PUT spend-limits replaces the whole set: limits not supplied return to the program's defaults (1000, 2500, 10000, 50000 USD), which a new card also has.",
		`"each an optional number" (merge or replace, and defaults, are not shown)`, "", false)

	dLimitUnset = declareDimension("spend-limit-unset", []string{"OPEN-SPEND-LIMIT-UNSET-FORM"},
		"How the PUT answer shows a limit that is not set.",
		quote("spendLimits (object with the four limits)"),
		"spend-limits-unset-null", "null.")
	vLimitsUnsetZero = dLimitUnset.setting("spend-limits-unset-zero", "PUT spend-limits replaces the whole set and shows an unset limit as 0.",
		`"each an optional number"; "A transaction exceeding a configured limit is declined" (how an unset limit is shown is not)`, "", false, vLimitsPutReplaces)
	vLimitsUnsetMinusOne = dLimitUnset.setting("spend-limits-unset-minus-one", "An unset limit is shown as -1.",
		`"each an optional number in USD" (how an unset limit is shown is not stated)`, "", false)
	vLimitsUnsetAbsent = dLimitUnset.setting("spend-limits-unset-absent", "An unset limit is left out of spendLimits.",
		`"spendLimits (object with the four limits)" (how an unset one is shown is not stated)`, "", true)

	dLimitZone = declareDimension("spend-limit-zone", []string{"OPEN-SPEND-LIMIT-CALENDAR"},
		"The zone of the calendar day and month of dailyLimit and monthlyLimit.",
		quote("dailyLimit (per calendar day, cumulative), monthlyLimit (per calendar month, cumulative)"),
		"spend-limit-day-utc", "UTC days and months.")
	vLimitDayLagos = dLimitZone.setting("spend-limit-day-utc-plus-1", "Days and months in UTC+01:00 (Africa/Lagos).",
		`"per calendar day" (whose calendar is not stated)`, "", false)
	vLimitDayWest = dLimitZone.setting("spend-limit-day-utc-minus-5", "Days and months in UTC-05:00 (US Eastern standard time).",
		`"per calendar day" (whose calendar is not stated)`, "", false)

	dTxnWebhooks = declareDimension("transaction-webhooks", []string{"OPEN-TRANSACTION-WEBHOOKS"},
		"Which card transactions send a webhook.",
		quote("The service sends card webhooks to the merchant's configured webhook URL"),
		"transaction-webhooks-all", "Every authorization, decline and settlement.")
	vTxnNoDeclines = dTxnWebhooks.setting("transaction-webhooks-without-declines", "Declined authorizations send no webhook; approvals and settlements do.",
		`"The service sends card webhooks" (for which transactions is not stated)`, "", false)

	dLimitRules = declareDimension("spend-limit-rules", []string{"OPEN-SPEND-LIMIT-CONSISTENCY", "OPEN-AMOUNT-CAPS"},
		"Business rules on spend limits.",
		quote("Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown"),
		"spend-limits-unbounded", "Any positive limits, in any order.")
	vLimitMax5000 = dLimitRules.setting("spend-limit-max-5000", "A spend limit above 5000.00 USD is refused with 400.",
		`"Maximum values for amounts and spend limits ...: not shown"`, "", false)
	vLimitsOrdered = dLimitRules.setting("spend-limits-ordered", "The limits set must not decrease from transaction to daily to monthly to all-time; a PUT breaking that is refused with 400.",
		`"Maximum values for amounts and spend limits ...: not shown"; other failure conditions: not shown`, "", false)

	dFundingMax = declareDimension("amount-rules", []string{"OPEN-AMOUNT-CAPS"},
		"A maximum card funding.",
		quote("Maximum values for amounts and spend limits, and bounds of gift card amounts: not shown"),
		"card-funding-unbounded", "Any funding the vault covers.")
	vFundingMax100 = dFundingMax.setting("card-funding-max-100", "Issuance with an amount above 100.00 USD is refused with 400.",
		`"Maximum values for amounts ...: not shown"`, "", false)
	vFundingMax1000 = dFundingMax.setting("card-funding-max-1000", "Issuance with an amount above 1000.00 USD is refused with 400.",
		`"Maximum values for amounts ...: not shown"`, "", false)

	dNameRules = declareDimension("name-on-card", []string{"OPEN-NAME-ON-CARD-RULES"},
		"What nameOnCard may hold (embossing rules).",
		quote("the body contains nameOnCard (non-empty)"),
		"name-on-card-any", "Any non-empty name up to 64 characters.")
	vNameMax21 = dNameRules.setting("card-name-max-21", "nameOnCard is at most 21 characters (an embossing line).",
		`"nameOnCard (non-empty)" (length not shown)`, "", false)
	vNameLetters = dNameRules.setting("card-name-letters-only", "nameOnCard holds letters, spaces, dots, apostrophes and hyphens only.",
		`"nameOnCard (non-empty)" (characters not shown)`, "", false)
	vNameEmbossing = dNameRules.setting("card-name-embossing", "nameOnCard matches ^[A-Za-z .'-]{1,21}$ (both rules).",
		`"nameOnCard (non-empty)"`, "", false)

	dNameCase = declareDimension("name-on-card-case", []string{"OPEN-NAME-ON-CARD-RENDERING"},
		"Whether nameOnCard is kept as given or as embossed.",
		quote("nameOnCard | string"),
		"name-on-card-as-given", "nameOnCard is kept as given.")
	vNameUpper = dNameCase.setting("card-name-upper-case", "nameOnCard is stored and shown in upper case, as embossed.",
		`"nameOnCard | string" (that it echoes the input's case is not stated)`, "", false)

	dCardReference = declareDimension("card-reference-rules", []string{"OPEN-CARD-REFERENCE-RULES"},
		"What a card's merchant reference may hold.",
		quote("reference | string | merchant reference of the card"),
		"card-reference-64", "Up to 64 letters, digits, '.', '_' or '-'.")
	vReferenceShort = dCardReference.setting("card-reference-max-20-alphanumeric", "A card reference is 1 to 20 letters, digits or underscores.",
		`"reference | string | merchant reference of the card" (form not shown)`, "", false)

	dCardsPerCustomer = declareDimension("cards-per-customer", []string{"OPEN-CARDS-PER-CUSTOMER"},
		"A cap on cards per customer.",
		quote("After successful verification the returned customerId is used to issue cards"),
		"cards-per-customer-unbounded", "A customer may hold any number of cards.")
	vCardsPer5 = dCardsPerCustomer.setting("cards-per-customer-5", "A customer holds at most 5 cards; the 6th issuance is refused with 400.",
		`other failure conditions: not shown`, "", false)
	vCardsPer10 = dCardsPerCustomer.setting("cards-per-customer-10", "A customer holds at most 10 cards; the 11th issuance is refused with 400.",
		`other failure conditions: not shown`, "", false)

	dUpdatedAt = declareDimension("updated-at", []string{"OPEN-UPDATED-AT"},
		"What moves updatedAt.",
		quote("card (Card with updated balance and updatedAt)"),
		"updated-at-on-writes", "updatedAt moves when the card changes.")
	vUpdatedOnRead = dUpdatedAt.setting("updated-at-on-every-read", "updatedAt is the time the card was last synced from the processor: every answer carrying a card shows the time of that answer.",
		`"updatedAt | ISO 8601 UTC timestamp" (its meaning beyond the withdrawal answer is not stated)`, "", true)

	dSecureCache = declareDimension("secure-caching", []string{"OPEN-SECURE-CACHING"},
		"How the secure answer keeps shared caches away.",
		quote("This data is PCI-sensitive; it must never reach public clients or unauthenticated browsers"),
		"secure-cache-no-store", "Cache-Control: no-store.")
	vCachePrivate = dSecureCache.setting("secure-cache-private", "Cache-Control: private, max-age=0.",
		`"must never reach public clients" (RFC 9111: a private answer is never stored by a shared cache)`, "", false)
	vCacheSpring = dSecureCache.setting("secure-cache-spring-default", "Cache-Control: no-cache, no-store, max-age=0, must-revalidate with Pragma: no-cache (Spring Security's default).",
		`"must never reach public clients"`, "", false)
	vCacheAbsent = dSecureCache.setting("secure-cache-header-absent", "No Cache-Control (RFC 9111 §3.5: a shared cache does not store an answer to a request with Authorization unless told).",
		`"must never reach public clients or unauthenticated browsers"`, "", false)
)

// Program defaults of spend-limits-put-restores-defaults, in cents.
var defaultLimits = [4]int64{1000_00, 2500_00, 10000_00, 50000_00}

// programLimits are the program's default limits: defaultLimits, within the
// program's own maximum when spend-limit-max-5000 is on too (a program
// whose defaults broke its own cap would refuse every PUT supplying fewer
// than four limits, which "each an optional number" does not allow).
func (s *Server) programLimits() [4]int64 {
	l := defaultLimits
	if s.variants.on(vLimitMax5000) {
		for i := range l {
			l[i] = min(l[i], 5000_00)
		}
	}
	return l
}

// initialBalance is a new card's balance for funding amt.
func (s *Server) initialBalance(amt money.Amount) int64 {
	switch {
	case s.variants.on(vInitialNetFundFee):
		return int64(amt) - fundFee
	case s.variants.on(vFundFeePercent):
		return int64(amt) - (int64(amt)*fundFee+5000)/10000 // fundFee per cent, rounded half up
	}
	return int64(amt)
}

// withdrawDebit is what a withdrawal of amt takes from the card.
func (s *Server) withdrawDebit(amt money.Amount) int64 {
	if s.variants.on(vWithdrawFeeOnCard) {
		return int64(amt) + withdrawalFee
	}
	return int64(amt)
}

// limitsBase is what a PUT's unsupplied limits start from.
func (s *Server) limitsBase(c *card) [4]int64 {
	switch {
	case s.variants.on(vLimitsReplaceDefaults):
		return s.programLimits()
	case s.variants.on(vLimitsPutReplaces):
		return [4]int64{}
	}
	return c.limits
}

// shownLimit renders one limit of a PUT answer (nil: null).
func (s *Server) shownLimit(n int64) *money.Amount {
	switch {
	case n != 0:
	case s.variants.on(vLimitsUnsetZero):
	case s.variants.on(vLimitsUnsetMinusOne):
		n = -1_00
	default:
		return nil
	}
	a := money.Amount(n)
	return &a
}

// limitRules checks the spend-limit business rules of l; "" passes.
func (s *Server) limitRules(l [4]int64) string {
	v := &s.variants
	if v.on(vLimitMax5000) {
		for i, n := range l {
			if n > 5000_00 {
				return limitNames[i] + " must not be greater than 5000"
			}
		}
	}
	if v.on(vLimitsOrdered) {
		prev, prevName := int64(0), ""
		for i, n := range l {
			if n == 0 {
				continue
			}
			if n < prev {
				return limitNames[i] + " must not be lower than " + prevName
			}
			prev, prevName = n, limitNames[i]
		}
	}
	return ""
}

var (
	reNameLetters   = regexp.MustCompile(`^[A-Za-z .'-]+$`)
	reShortCardRef  = regexp.MustCompile(`^[A-Za-z0-9_]{1,20}$`)
	fundingMaxCents = map[variantID]int64{vFundingMax100: 100_00, vFundingMax1000: 1000_00}
)

// issueRules adds the issuance business rules' violations to v.
func (s *Server) issueRules(v *validator, req issueRequest) {
	on := s.variants.on
	n := len([]rune(req.name))
	if (on(vNameMax21) || on(vNameEmbossing)) && n > 21 {
		v.add("nameOnCard must be shorter than or equal to 21 characters")
	}
	if (on(vNameLetters) || on(vNameEmbossing)) && req.name != "" && !reNameLetters.MatchString(req.name) {
		v.add("nameOnCard must contain only letters, spaces, dots, apostrophes and hyphens")
	}
	if on(vReferenceShort) && req.hasRef && !reShortCardRef.MatchString(req.ref) {
		v.add("reference must be 1 to 20 letters, digits or underscores")
	}
	for id, max := range fundingMaxCents {
		if on(id) && int64(req.amt) > max {
			v.add("amount must not be greater than " + strconv.FormatInt(max/100, 10))
		}
	}
}

// cardsPerCustomerFull reports whether customer cust already holds the
// most cards allowed; the caller holds st's lock.
func (s *Server) cardsPerCustomerFull(st *envState, cust string) (bool, int) {
	max := 0
	switch {
	case s.variants.on(vCardsPer5):
		max = 5
	case s.variants.on(vCardsPer10):
		max = 10
	default:
		return false, 0
	}
	n := 0
	for _, c := range st.cards {
		if c.customerID == cust {
			n++
		}
	}
	return n >= max, max
}

// cardName is nameOnCard as the card keeps it.
func (s *Server) cardName(name string) string {
	if s.variants.on(vNameUpper) {
		return strings.ToUpper(name)
	}
	return name
}

// setSecureCache labels the secure answer for caches.
func (s *Server) setSecureCache(h http.Header) {
	v := &s.variants
	switch {
	case v.on(vCachePrivate):
		h.Set("Cache-Control", "private, max-age=0")
	case v.on(vCacheSpring):
		h.Set("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
		h.Set("Pragma", "no-cache")
	case v.on(vCacheAbsent):
		h.Del("Cache-Control")
	default:
		h.Set("Cache-Control", "no-store")
	}
}

// mergedLimits are the limits a PUT of set (cleared: unset) would leave on
// c, for the limit rules.
func (s *Server) mergedLimits(c *card, set [4]int64, cleared [4]bool) [4]int64 {
	l := s.limitsBase(c)
	for i, n := range set {
		switch {
		case cleared[i]:
			l[i] = 0
		case n > 0:
			l[i] = n
		}
	}
	return l
}

// cardID is a new card's id under the id-form settings.
func (s *Server) cardID(id string) string {
	if !s.variants.on(vCardIDUUID) {
		return id
	}
	h := randHex(16)
	return "crd_" + h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// limitDay is the time whose date counts for daily and monthly limits.
func (s *Server) limitDay(now time.Time) time.Time {
	switch {
	case s.variants.on(vLimitDayLagos):
		return now.In(time.FixedZone("", 3600))
	case s.variants.on(vLimitDayWest):
		return now.In(time.FixedZone("", -5*3600))
	}
	return now.UTC()
}

// txnWebhook reports whether a transaction sends a webhook.
func (s *Server) txnWebhook(approved bool) bool {
	return approved || !s.variants.on(vTxnNoDeclines)
}

// unsetLimitsAbsent drops the unset limits of a PUT answer
// (spend-limits-unset-absent).
func (s *Server) unsetLimitsAbsent(r *http.Request, top map[string]any) {
	if !s.variants.on(vLimitsUnsetAbsent) || r.Method != http.MethodPut {
		return
	}
	d, _ := top["data"].(map[string]any)
	if l, ok := d["spendLimits"].(map[string]any); ok {
		for k, v := range l {
			if v == nil {
				delete(l, k)
			}
		}
	}
}
