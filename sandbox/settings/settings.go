// Package settings holds the hooks of the settings (the behaviours the
// document allows, sandbox/variant) at the points of the sandbox's logic
// they change: the auth checks, the cards' numbers and limits, the
// customers' rules and identities, the gift orders' reconciliation and
// replays, the listings' order, lag and search, and the refusals that come
// before others. The handlers of package sandbox ask them; what a setting
// remembers between requests is kept here.
package settings

import "github.com/merchant-harness/mph/sandbox/variant"

// Settings are the hooks of one sandbox's settings.
type Settings struct {
	v   variant.Set
	mem *memory
}

// New holds the hooks of the settings vs.
func New(vs variant.Set) *Settings { return &Settings{v: vs, mem: newMemory()} }
