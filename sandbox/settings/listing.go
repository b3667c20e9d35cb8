package settings

import (
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// listingLag is how far listings lag writes.
const ListingLag = 2 * time.Second

// listingSnapshot is what a lagging index holds of a merchant environment.
type listingSnapshot struct {
	cardsAt, custAt, vaultAt time.Time
	cards                    []*state.Card
	customers                []*state.Customer
	vault                    int64
}

// snapshot returns st's snapshot, refreshed when older than the lag.
func (s *Settings) snapshot(st *state.EnvState, now time.Time, cards, customers, vault bool) *listingSnapshot {
	vs := s.mem
	vs.mu.Lock()
	defer vs.mu.Unlock()
	sn := vs.snapshots[st]
	if sn == nil {
		sn = &listingSnapshot{}
		vs.snapshots[st] = sn
	}
	if cards && (sn.cards == nil || now.Sub(sn.cardsAt) >= ListingLag) {
		sn.cards, sn.cardsAt = make([]*state.Card, len(st.Cards)), now
		for i, c := range st.Cards {
			cp := *c
			sn.cards[i] = &cp
		}
	}
	if customers && (sn.customers == nil || now.Sub(sn.custAt) >= ListingLag) {
		sn.customers, sn.custAt = make([]*state.Customer, len(st.Customers)), now
		for i, c := range st.Customers {
			cp := *c
			sn.customers[i] = &cp
		}
	}
	if vault && (sn.vaultAt.IsZero() || now.Sub(sn.vaultAt) >= ListingLag) {
		sn.vault, sn.vaultAt = st.Vault, now
	}
	return sn
}

// listedCards are the cards a listing sees; the caller holds st's lock.
func (s *Settings) listedCards(st *state.EnvState, now time.Time) []*state.Card {
	if !s.v.On(variant.ListLag) {
		return st.Cards
	}
	return s.snapshot(st, now, true, false, false).cards
}

// ListedCustomers are the customers a listing sees; the caller holds st's lock.
func (s *Settings) ListedCustomers(st *state.EnvState, now time.Time) []*state.Customer {
	if !s.v.On(variant.ListLag) {
		return st.Customers
	}
	return s.snapshot(st, now, false, true, false).customers
}

// ListedVault is the vault balance the configuration shows; the caller
// holds st's lock.
func (s *Settings) ListedVault(st *state.EnvState, now time.Time) int64 {
	if !s.v.On(variant.VaultLag) {
		return st.Vault
	}
	return s.snapshot(st, now, false, false, true).vault
}

// ListingVaried reports whether a setting changes how cards are listed.
func (s *Settings) ListingVaried() bool {
	v := &s.v
	return v.OnAny(variant.ListLag, variant.ListOldestFirst, variant.ListByName, variant.SearchCustomerName) || v.Varies(variant.SearchMatch)
}

// ListCardsVariant is the sandbox's listing (listCardsOf) under the
// listing settings: a lagging index, another order, another search; the
// caller holds st's lock.
func (s *Settings) ListCardsVariant(st *state.EnvState, now time.Time, out []state.CardJSON, status, search string, limit int64) []state.CardJSON {
	cards := append([]*state.Card(nil), s.listedCards(st, now)...)
	switch {
	case s.v.On(variant.ListOldestFirst):
	case s.v.On(variant.ListByName):
		sort.SliceStable(cards, func(i, j int) bool {
			if cards[i].NameLower != cards[j].NameLower {
				return cards[i].NameLower < cards[j].NameLower
			}
			return cards[i].ID < cards[j].ID
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
		if (status == "ACTIVE" && c.Frozen) || (status == "FROZEN" && !c.Frozen) {
			continue
		}
		if search != "" && !s.searchMatches(st, c, search) {
			continue
		}
		out = append(out, c.JSON())
	}
	return out
}

// searchMatches applies the search settings: which name, and how.
func (s *Settings) searchMatches(st *state.EnvState, c *state.Card, search string) bool {
	if c.Last4 == search {
		return true
	}
	name := c.NameOnCard
	if s.v.On(variant.SearchCustomerName) {
		name = ""
		if cu := st.CustByID[c.CustomerID]; cu != nil {
			name = cu.Rec.FirstName + " " + cu.Rec.LastName
		}
	}
	return s.textMatches(name, search) || s.textMatches(c.Ref, search)
}

// textMatches reports whether search matches value as the settings say.
func (s *Settings) textMatches(value, search string) bool {
	v := &s.v
	lv, ls := strings.ToLower(value), strings.ToLower(search)
	switch {
	case v.On(variant.ListSearchExact):
		return lv == ls
	case v.On(variant.SearchPrefix):
		return strings.HasPrefix(lv, ls)
	case v.On(variant.SearchCase):
		return strings.Contains(value, search)
	case v.On(variant.SearchAnyWord):
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
