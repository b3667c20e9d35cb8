// Package settings holds the hooks of the settings (the behaviours the
// document allows, sandbox/variant) at the points of the sandbox's logic
// they change: the auth checks, the cards' numbers and limits, the
// customers' rules and identities, the gift orders' reconciliation and
// replays, the listings' order, lag and search, and the refusals that come
// before others. The handlers of package sandbox ask them; what a setting
// remembers between requests is kept here.
package settings

import (
	"sync"
	"time"

	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Settings are the hooks of one sandbox's settings.
type Settings struct {
	v   variant.Set
	mem *memory
}

// New holds the hooks of the settings vs.
func New(vs variant.Set) *Settings { return &Settings{v: vs, mem: newMemory()} }

// memory is what the settings remember beyond the sandbox's state.
type memory struct {
	mu         sync.Mutex
	identities map[string]bool                      // uniqueness keys in use
	approveAt  map[*state.Customer]time.Time        // customer-approval-delayed
	failures   map[string][]time.Time               // token-lockout: failed exchanges per merchant id
	snapshots  map[*state.EnvState]*listingSnapshot // listing freshness
}

func newMemory() *memory {
	return &memory{
		identities: map[string]bool{},
		approveAt:  map[*state.Customer]time.Time{},
		failures:   map[string][]time.Time{},
		snapshots:  map[*state.EnvState]*listingSnapshot{},
	}
}
