package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/merchant-harness/mph/money"
)

// Conform are the options of a conformance run: mph conform's and the
// suites' under go test (knobs.go gives them to no other command). They
// travel in the Config, so that every parallel process of a run has the
// same ones.
type Conform struct {
	Slow       bool             // also run specs that wait out real time
	NoTeardown bool             // keep the created cards and their balances
	MaxSpend   map[string]int64 // most test money per currency, minor units (nil: no cap)
	MaxRPS     float64          // most requests per second per process (0: no cap)
}

// ParseMaxSpend reads "USD=50,NGN=200000" into minor units per currency.
func ParseMaxSpend(s string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		cur, amt, ok := strings.Cut(part, "=")
		cur = strings.ToUpper(strings.TrimSpace(cur))
		if !ok || len(cur) != 3 {
			return nil, fmt.Errorf("max spend %q: want CURRENCY=AMOUNT, e.g. USD=50,NGN=200000", part)
		}
		a, err := money.Parse(strings.TrimSpace(amt))
		if err != nil || a < 0 {
			return nil, fmt.Errorf("max spend %q: %q is not an amount >= 0", part, amt)
		}
		out[cur] = a.Minor()
	}
	return out, nil
}

// FormatMaxSpend is the inverse of ParseMaxSpend (currencies sorted).
func FormatMaxSpend(m map[string]int64) string {
	parts := make([]string, 0, len(m))
	for cur, minor := range m {
		parts = append(parts, cur+"="+money.FromMinor(minor).String())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
