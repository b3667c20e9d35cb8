package settings

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Program defaults of spend-limits-put-restores-defaults, in cents.
var defaultLimits = [4]int64{1000_00, 2500_00, 10000_00, 50000_00}

// ProgramLimits are the program's default limits: defaultLimits, within the
// program's own maximum when spend-limit-max-5000 is on too (a program
// whose defaults broke its own cap would refuse every PUT supplying fewer
// than four limits, which "each an optional number" does not allow).
func (s *Settings) ProgramLimits() [4]int64 {
	l := defaultLimits
	if s.v.On(variant.LimitMax5000) {
		for i := range l {
			l[i] = min(l[i], 5000_00)
		}
	}
	return l
}

// InitialBalance is a new card's balance for funding amt.
func (s *Settings) InitialBalance(amt money.Amount) int64 {
	switch {
	case s.v.On(variant.InitialNetFundFee):
		return int64(amt) - state.FundFee
	case s.v.On(variant.FundFeePercent):
		return int64(amt) - (int64(amt)*state.FundFee+5000)/10000 // fundFee per cent, rounded half up
	}
	return int64(amt)
}

// WithdrawDebit is what a withdrawal of amt takes from the card.
func (s *Settings) WithdrawDebit(amt money.Amount) int64 {
	if s.v.On(variant.WithdrawFeeOnCard) {
		return int64(amt) + state.WithdrawalFee
	}
	return int64(amt)
}

// LimitsBase is what a PUT's unsupplied limits start from.
func (s *Settings) LimitsBase(c *state.Card) [4]int64 {
	switch {
	case s.v.On(variant.LimitsReplaceDefaults):
		return s.ProgramLimits()
	case s.v.On(variant.LimitsPutReplaces):
		return [4]int64{}
	}
	return c.Limits
}

// ShownLimit renders one limit of a PUT answer (nil: null).
func (s *Settings) ShownLimit(n int64) *money.Amount {
	switch {
	case n != 0:
	case s.v.On(variant.LimitsUnsetZero):
	case s.v.On(variant.LimitsUnsetMinusOne):
		n = -1_00
	default:
		return nil
	}
	a := money.Amount(n)
	return &a
}

// LimitRules checks the spend-limit business rules of l; "" passes.
func (s *Settings) LimitRules(l [4]int64) string {
	v := &s.v
	if v.On(variant.LimitMax5000) {
		for i, n := range l {
			if n > 5000_00 {
				return state.LimitNames[i] + " must not be greater than 5000"
			}
		}
	}
	if v.On(variant.LimitsOrdered) {
		prev, prevName := int64(0), ""
		for i, n := range l {
			if n == 0 {
				continue
			}
			if n < prev {
				return state.LimitNames[i] + " must not be lower than " + prevName
			}
			prev, prevName = n, state.LimitNames[i]
		}
	}
	return ""
}

var (
	reNameLetters   = regexp.MustCompile(`^[A-Za-z .'-]+$`)
	reShortCardRef  = regexp.MustCompile(`^[A-Za-z0-9_]{1,20}$`)
	fundingMaxCents = map[variant.ID]int64{variant.FundingMax100: 100_00, variant.FundingMax1000: 1000_00}
)

// IssueRules adds the issuance business rules' violations to v.
func (s *Settings) IssueRules(v *validate.Fields, name, ref string, hasRef bool, amt money.Amount) {
	on := s.v.On
	n := len([]rune(name))
	if (on(variant.NameMax21) || on(variant.NameEmbossing)) && n > 21 {
		v.Add("nameOnCard must be shorter than or equal to 21 characters")
	}
	if (on(variant.NameLetters) || on(variant.NameEmbossing)) && name != "" && !reNameLetters.MatchString(name) {
		v.Add("nameOnCard must contain only letters, spaces, dots, apostrophes and hyphens")
	}
	if on(variant.ReferenceShort) && hasRef && !reShortCardRef.MatchString(ref) {
		v.Add("reference must be 1 to 20 letters, digits or underscores")
	}
	for id, max := range fundingMaxCents {
		if on(id) && int64(amt) > max {
			v.Add("amount must not be greater than " + strconv.FormatInt(max/100, 10))
		}
	}
}

// CardsPerCustomerFull reports whether customer cust already holds the
// most cards allowed; the caller holds st's lock.
func (s *Settings) CardsPerCustomerFull(st *state.EnvState, cust string) (bool, int) {
	max := 0
	switch {
	case s.v.On(variant.CardsPer5):
		max = 5
	case s.v.On(variant.CardsPer10):
		max = 10
	default:
		return false, 0
	}
	n := 0
	for _, c := range st.Cards {
		if c.CustomerID == cust {
			n++
		}
	}
	return n >= max, max
}

// CardName is nameOnCard as the card keeps it.
func (s *Settings) CardName(name string) string {
	if s.v.On(variant.NameUpper) {
		return strings.ToUpper(name)
	}
	return name
}

// SetSecureCache labels the secure answer for caches.
func (s *Settings) SetSecureCache(hdr http.Header) {
	v := &s.v
	switch {
	case v.On(variant.CachePrivate):
		hdr.Set("Cache-Control", "private, max-age=0")
	case v.On(variant.CacheSpring):
		hdr.Set("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
		hdr.Set("Pragma", "no-cache")
	case v.On(variant.CacheAbsent):
		hdr.Del("Cache-Control")
	default:
		hdr.Set("Cache-Control", "no-store")
	}
}

// MergedLimits are the limits a PUT of set (cleared: unset) would leave on
// c, for the limit rules.
func (s *Settings) MergedLimits(c *state.Card, set [4]int64, cleared [4]bool) [4]int64 {
	l := s.LimitsBase(c)
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

// CardID is a new card's id under the id-form settings.
func (s *Settings) CardID(id string) string {
	if !s.v.On(variant.CardIDUUID) {
		return id
	}
	h := ids.Hex(16)
	return "crd_" + h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// LimitDay is the time whose date counts for daily and monthly limits.
func (s *Settings) LimitDay(now time.Time) time.Time {
	switch {
	case s.v.On(variant.LimitDayLagos):
		return now.In(time.FixedZone("", 3600))
	case s.v.On(variant.LimitDayWest):
		return now.In(time.FixedZone("", -5*3600))
	}
	return now.UTC()
}

// TxnWebhook reports whether a transaction sends a webhook.
func (s *Settings) TxnWebhook(approved bool) bool {
	return approved || !s.v.On(variant.TxnNoDeclines)
}
