package sandbox

import (
	"sort"
	"strings"
	"time"
	"unicode"
)

// Listings: only GET /cards/{id} is documented as real time; order, default
// filter, maximum limit and how search matches are not shown.
var (
	dListFreshness = declareDimension("read-freshness", []string{"OPEN-LISTING-FRESHNESS"},
		"How fresh GET /cards and GET /cards/customers are.",
		quote("data = Card (balance is real-time)"),
		"listings-real-time", "Listings show every write at once.")
	vListLag = dListFreshness.setting("listings-lag-2s", "Listings and searches come from an index refreshed every 2 seconds: a write shows there up to 2 s later.",
		`only GET /cards/{id} is "real-time"; the freshness of listings is not stated`, "", false)

	dVaultFreshness = declareDimension("vault-balance-freshness", []string{"OPEN-VAULT-FRESHNESS"},
		"How fresh the configuration's vaultBalance is.",
		quote("vaultBalance | number | available unspent balance of the merchant USD vault"),
		"vault-balance-real-time", "vaultBalance shows every write at once.")
	vVaultLag = dVaultFreshness.setting("vault-balance-lag-2s", "vaultBalance comes from a ledger replica refreshed every 2 seconds.",
		`"vaultBalance | available unspent balance" (real time is stated for the card balance only)`, "", false)

	dListOrder = declareDimension("list-order", []string{"OPEN-LIST-ORDER"},
		"The order of GET /cards.",
		quote("data = array of Card"),
		"list-newest-first", "Newest first.")
	vListOldestFirst = dListOrder.setting("list-oldest-first", "GET /cards lists the oldest cards first.",
		`GET /cards: "data = array of Card" (order not shown)`, "", false)
	vListByName = dListOrder.setting("list-by-name", "GET /cards lists cards by nameOnCard, then id.",
		`GET /cards: "data = array of Card" (order not shown)`, "", false)

	dListDefault = declareDimension("list-default-status", []string{"OPEN-LIST-DEFAULT-STATUS"},
		"The status filter of GET /cards without status.",
		quote("status | string | ACTIVE, FROZEN or ALL"),
		"list-default-all", "Without status, every card is listed.")
	vListDefaultActive = dListDefault.setting("list-default-active-only", "GET /cards without status lists ACTIVE cards only.",
		`status "ACTIVE, FROZEN or ALL" is optional; its default is not shown`, "", false)

	dListMax = declareDimension("list-max-limit", []string{"OPEN-LIST-MAX-LIMIT"},
		"The largest limit GET /cards accepts.",
		quote("limit | number | maximum records returned; default 50"),
		"list-max-limit-100", "limit up to 100; above, 400.")
	vListMax50 = dListMax.setting("list-max-limit-50", "GET /cards refuses a limit above 50 (the default is also the maximum).",
		`"limit | maximum records returned; default 50" (the maximum is not shown)`, "", false)
	vListClamp50 = dListMax.setting("list-limit-clamped-50", "GET /cards accepts any limit but returns at most 50 cards.",
		`"limit | maximum records returned; default 50" (the maximum is not shown)`, "", false)

	dSearchTarget = declareDimension("search-name", []string{"OPEN-SEARCH-NAME"},
		"Which name the search matches as the cardholder name.",
		quote("search | string | matches cardholder name, reference, or last 4 digits of the PAN"),
		"search-name-on-card", "The cardholder name is the card's nameOnCard.")
	vSearchCustomerName = dSearchTarget.setting("search-customer-name", "The cardholder name is the customer's firstName and lastName (the document's cardholder is the customer).",
		`"matches cardholder name"; "register cardholder customer"`, "", false)

	dSearchMatch = declareDimension("search-match", []string{"OPEN-SEARCH-MATCH"},
		"How search matches a name or reference.",
		quote("search | string | matches cardholder name, reference, or last 4 digits of the PAN"),
		"search-substring", "A case-insensitive substring of the name or reference; the last 4 digits exactly.")
	vListSearchExact = dSearchMatch.setting("list-search-exact", "GET /cards?search matches a whole name, reference or last 4 digits (case-insensitive), not a substring.",
		`search "matches cardholder name, reference, or last 4 digits of the PAN" (how it matches is not shown)`, "", false)
	vSearchPrefix = dSearchMatch.setting("search-prefix", "search matches the beginning of the name or reference (case-insensitive).",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
	vSearchAnyWord = dSearchMatch.setting("search-any-word", "search matches a card when any word of it is a word of the name or reference (a tokenised full-text index).",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
	vSearchCase = dSearchMatch.setting("search-case-sensitive", "search matches a substring of the name or reference, case-sensitively.",
		`"matches cardholder name, reference" (how is not shown)`, "", false)
)

// listingLag is how far listings lag writes.
const listingLag = 2 * time.Second

// listingSnapshot is what a lagging index holds of a merchant environment.
type listingSnapshot struct {
	cardsAt, custAt, vaultAt time.Time
	cards                    []*card
	customers                []*customer
	vault                    int64
}

// snapshot returns st's snapshot, refreshed when older than the lag.
func (s *Server) snapshot(st *envState, now time.Time, cards, customers, vault bool) *listingSnapshot {
	vs := s.vstate
	vs.mu.Lock()
	defer vs.mu.Unlock()
	sn := vs.snapshots[st]
	if sn == nil {
		sn = &listingSnapshot{}
		vs.snapshots[st] = sn
	}
	if cards && (sn.cards == nil || now.Sub(sn.cardsAt) >= listingLag) {
		sn.cards, sn.cardsAt = make([]*card, len(st.cards)), now
		for i, c := range st.cards {
			cp := *c
			sn.cards[i] = &cp
		}
	}
	if customers && (sn.customers == nil || now.Sub(sn.custAt) >= listingLag) {
		sn.customers, sn.custAt = make([]*customer, len(st.customers)), now
		for i, c := range st.customers {
			cp := *c
			sn.customers[i] = &cp
		}
	}
	if vault && (sn.vaultAt.IsZero() || now.Sub(sn.vaultAt) >= listingLag) {
		sn.vault, sn.vaultAt = st.vault, now
	}
	return sn
}

// listedCards are the cards a listing sees; the caller holds st's lock.
func (s *Server) listedCards(st *envState, now time.Time) []*card {
	if !s.variants.on(vListLag) {
		return st.cards
	}
	return s.snapshot(st, now, true, false, false).cards
}

// listedCustomers are the customers a listing sees; the caller holds st's lock.
func (s *Server) listedCustomers(st *envState, now time.Time) []*customer {
	if !s.variants.on(vListLag) {
		return st.customers
	}
	return s.snapshot(st, now, false, true, false).customers
}

// listedVault is the vault balance the configuration shows; the caller
// holds st's lock.
func (s *Server) listedVault(st *envState, now time.Time) int64 {
	if !s.variants.on(vVaultLag) {
		return st.vault
	}
	return s.snapshot(st, now, false, false, true).vault
}

// listingVaried reports whether a setting changes how cards are listed.
func (s *Server) listingVaried() bool {
	v := &s.variants
	return v.onAny(vListLag, vListOldestFirst, vListByName, vSearchCustomerName) || v.onAny(dSearchMatch.settings[1:]...)
}

// listCardsVariant is listCardsOf under the listing settings: a lagging
// index, another order, another search; the caller holds st's lock.
func (s *Server) listCardsVariant(st *envState, now time.Time, out []cardJSON, status, search string, limit int64) []cardJSON {
	cards := append([]*card(nil), s.listedCards(st, now)...)
	switch {
	case s.variants.on(vListOldestFirst):
	case s.variants.on(vListByName):
		sort.SliceStable(cards, func(i, j int) bool {
			if cards[i].nameLower != cards[j].nameLower {
				return cards[i].nameLower < cards[j].nameLower
			}
			return cards[i].id < cards[j].id
		})
	default:
		for i, j := 0, len(cards)-1; i < j; i, j = i+1, j-1 {
			cards[i], cards[j] = cards[j], cards[i]
		}
	}
	for _, c := range cards {
		if int64(len(out)) >= limit {
			break
		}
		if (status == "ACTIVE" && c.frozen) || (status == "FROZEN" && !c.frozen) {
			continue
		}
		if search != "" && !s.searchMatches(st, c, search) {
			continue
		}
		out = append(out, c.json())
	}
	return out
}

// searchMatches applies the search settings: which name, and how.
func (s *Server) searchMatches(st *envState, c *card, search string) bool {
	if c.last4 == search {
		return true
	}
	name := c.nameOnCard
	if s.variants.on(vSearchCustomerName) {
		name = ""
		if cu := st.custByID[c.customerID]; cu != nil {
			name = cu.rec.FirstName + " " + cu.rec.LastName
		}
	}
	return s.textMatches(name, search) || s.textMatches(c.ref, search)
}

// textMatches reports whether search matches value as the settings say.
func (s *Server) textMatches(value, search string) bool {
	v := &s.variants
	lv, ls := strings.ToLower(value), strings.ToLower(search)
	switch {
	case v.on(vListSearchExact):
		return lv == ls
	case v.on(vSearchPrefix):
		return strings.HasPrefix(lv, ls)
	case v.on(vSearchCase):
		return strings.Contains(value, search)
	case v.on(vSearchAnyWord):
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(lv, notAlnum) {
			words[w] = true
		}
		for _, w := range strings.FieldsFunc(ls, notAlnum) {
			if words[w] {
				return true
			}
		}
		return false
	}
	return strings.Contains(lv, ls)
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
