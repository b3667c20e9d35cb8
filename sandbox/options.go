package sandbox

import (
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/controls"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

// Options configure a sandbox Server. The zero value is a valid configuration.
type Options struct {
	BasePath          string                     // default "/v1/merchant"; must end in "/v1/merchant"
	AdminKey          string                     // default "sbx_admin_demo"
	JWTSecret         []byte                     // random when nil
	Clock             clock.Clock                // default: real clock; controls advance an offset over it
	RateLimits        map[string]ratelimit.Limit // groups token, read, secure, write; nil = defaults; missing groups keep defaults
	DisableRateLimits bool
	RateLimitTopology ratelimit.Topology // shared groups and bucket key (zero: per merchant and group)
	Faults            []string           // names from fault.All(); unknown name = error from New
	Variants          []string           // names from variant.Variants(); unknown name = error from New
	Logger            *slog.Logger       // nil = discard
	// EchoRequests is TEST-ONLY: every answer echoes the request's
	// headers and body (sandbox/echo), to test the harness's redaction.
	EchoRequests bool

	// HideControls answers /_sandbox like any unknown path (404): the sandbox
	// then stands in for a real TEST environment, which has no test controls.
	HideControls bool
	// Webhooks are merchants' webhook URLs configured at start (presets.go).
	Webhooks []WebhookPreset
}

// Defaults of docs/sandbox.md.
const (
	DefaultBasePath = "/v1/merchant"
	DefaultAdminKey = "sbx_admin_demo"
	DefaultAddr     = "127.0.0.1:8080"
)

func (o *Options) normalize() error {
	if o.BasePath == "" {
		o.BasePath = DefaultBasePath
	}
	o.BasePath = strings.TrimRight(o.BasePath, "/")
	if !strings.HasPrefix(o.BasePath, "/") || !strings.HasSuffix(o.BasePath, "/v1/merchant") {
		return fmt.Errorf("sandbox: base path %q must start with / and end in /v1/merchant", o.BasePath)
	}
	if strings.HasPrefix(o.BasePath+"/", controls.Prefix+"/") {
		return fmt.Errorf("sandbox: base path %q collides with the controls prefix %s", o.BasePath, controls.Prefix)
	}
	if o.AdminKey == "" {
		o.AdminKey = DefaultAdminKey
	}
	if err := o.validatePresets(); err != nil {
		return err
	}
	if len(o.JWTSecret) == 0 {
		o.JWTSecret = make([]byte, 32)
		if _, err := rand.Read(o.JWTSecret); err != nil {
			return fmt.Errorf("sandbox: jwt secret: %w", err)
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := o.RateLimitTopology.Validate(); err != nil {
		return err
	}
	limits := ratelimit.Defaults()
	for g, l := range o.RateLimits {
		if _, ok := limits[g]; !ok {
			return fmt.Errorf("sandbox: unknown rate-limit group %q (want token, read, secure or write)", g)
		}
		if l.Rate < 0 || l.Burst < 0 {
			return fmt.Errorf("sandbox: rate limit %s: negative rate or burst", g)
		}
		limits[g] = ratelimit.Norm(l)
	}
	if o.DisableRateLimits {
		for g := range limits {
			limits[g] = ratelimit.Limit{}
		}
	}
	o.RateLimits = limits
	return nil
}
