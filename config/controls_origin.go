package config

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/merchant-harness/mph/httpclient"
)

// The sandbox test controls move money (balances, transactions) and receive
// the admin key. They are used only on the base URL's own origin, unless the
// operator names another controls URL (--controls-url or MPH_CONTROLS_URL)
// and that server proves it drives the target: its GET /identity answers the
// instance id the target stamps on its token answer (X-Sandbox-Instance) and
// lists the primary merchant. Nothing carrying the admin key is sent before.

// sameOrigin reports whether two absolute URLs share scheme, host and port
// (default ports made explicit).
func sameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && hostPort(ua) == hostPort(ub)
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// confirmIdentity checks that the controls at root serve the target whose
// token answer carried instance.
func confirmIdentity(ctx context.Context, hc *http.Client, cfg *Config, root, instance string) error {
	refuse := func(why string) error {
		return &PreflightError{fmt.Sprintf("controls URL %s is not on the origin of the base URL %s and %s: point --controls-url (%s) at the target's own controls, or drop it", root, cfg.BaseURL, why, EnvControlsURL)}
	}
	if instance == "" {
		return refuse("the target's token answer carries no " + InstanceHeader + " to confirm it against")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/identity", nil)
	if err != nil {
		return refuse(err.Error())
	}
	resp, err := hc.Do(req)
	if err != nil {
		return refuse("GET /identity failed")
	}
	defer resp.Body.Close()
	var id struct {
		Instance  string   `json:"instance"`
		Merchants []string `json:"merchants"`
	}
	raw, err := httpclient.ReadBody(resp.Body, preflightMaxBody)
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &id) != nil {
		return refuse(fmt.Sprintf("GET /identity answered %d, not an identity", resp.StatusCode))
	}
	if id.Instance != instance {
		return refuse("its identity names another sandbox instance than the target's")
	}
	if !slices.Contains(id.Merchants, cfg.Primary.MerchantID) {
		return refuse("its identity does not list the primary merchant")
	}
	return nil
}

// InstanceHeader is the header a sandbox names its instance in, on merchant
// answers and controls alike (the sandbox package sets it).
const InstanceHeader = "X-Sandbox-Instance"
