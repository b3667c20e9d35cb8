// Package options turns what a command asks of a sandbox into its options:
// the rate limits of `mph sandbox` and of the load commands' embedded
// sandbox, the webhook presets, and the settings a seed draws beside the
// named ones. Its errors are the user's (usage), naming the flag.
package options

import (
	"fmt"
	"strings"

	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// RateLimits reads --rate-limit values: "off" (off is true), or
// group=rate[:burst].
func RateLimits(vals []string) (limits map[string]ratelimit.Limit, off bool, err error) {
	for _, v := range vals {
		if v == "off" {
			off = true
			continue
		}
		g, l, err := ratelimit.Parse(v)
		if err != nil {
			return nil, false, fmt.Errorf("--rate-limit %w (or off)", err)
		}
		if limits == nil {
			limits = map[string]ratelimit.Limit{}
		}
		limits[g] = l
	}
	return limits, off, nil
}

// EmbeddedLimits are the rate limits of a load command's embedded sandbox:
// none at all (off), the groups set (group=rate[:burst]), the groups
// sharing a bucket and the bucket key.
func EmbeddedLimits(off bool, groups []string, share, key string) (sandbox.Options, error) {
	sbx := sandbox.Options{DisableRateLimits: off}
	if len(groups) > 0 {
		sbx.RateLimits = map[string]ratelimit.Limit{}
		for _, spec := range groups {
			g, l, err := ratelimit.Parse(spec)
			if err != nil {
				return sbx, fmt.Errorf("--sandbox-rate-limit %v", err)
			}
			sbx.RateLimits[g] = l
		}
	}
	switch key {
	case "", ratelimit.KeyMerchant, ratelimit.KeyToken, ratelimit.KeyClient:
	default:
		return sbx, fmt.Errorf("--sandbox-rate-limit-key %q: want merchant, token or client", key)
	}
	sbx.RateLimitTopology = ratelimit.Topology{Shared: ratelimit.ParseShared(share), Key: key}
	return sbx, nil
}

// WebhookPresets reads --webhook-url and --webhook-secret (MERCHANT=VALUE).
func WebhookPresets(urls, keys []string) ([]sandbox.WebhookPreset, error) {
	secrets := map[string]string{}
	for _, k := range keys {
		m, v, ok := strings.Cut(k, "=")
		if !ok || m == "" || v == "" {
			return nil, fmt.Errorf("--webhook-secret: want MERCHANT=SECRET")
		}
		secrets[m] = v
	}
	var out []sandbox.WebhookPreset
	for _, u := range urls {
		m, v, ok := strings.Cut(u, "=")
		if !ok || m == "" || v == "" {
			return nil, fmt.Errorf("--webhook-url %q: want MERCHANT=URL", u)
		}
		out = append(out, sandbox.WebhookPreset{MerchantID: m, URL: v, Secret: secrets[m]})
		delete(secrets, m)
	}
	for m := range secrets {
		return nil, fmt.Errorf("--webhook-secret for %s without a --webhook-url", m)
	}
	return out, nil
}

// Drawn are the settings seed draws besides the references, one of every
// dimension none of the named settings belongs to.
func Drawn(seed uint64, named []string) ([]string, error) {
	dims := map[string]bool{}
	for _, n := range named {
		v, ok := variant.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("unknown variant %q (see mph sandbox --list-variants)", n)
		}
		dims[v.Dimension] = true
	}
	var drawn []string
	for _, v := range variant.SeedSettings(seed) {
		if !v.Reference && !dims[v.Dimension] {
			drawn = append(drawn, v.Name)
		}
	}
	return drawn, nil
}
