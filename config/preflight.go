package config

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/liveguard"
)

// HTTPClient returns a client for this target (built by httpclient): the
// configured timeout on every request, TLS verification unless InsecureTLS,
// no redirect followed unless FollowRedirects (and then same-origin only).
func (c *Config) HTTPClient() *http.Client {
	return httpclient.New(httpclient.Options{Timeout: c.Timeout, InsecureTLS: c.InsecureTLS, FollowRedirects: c.FollowRedirects})
}

// DefaultConformMaxBody is the body cap of conform when --max-body is not given.
const DefaultConformMaxBody = 1 << 20

// BodyCap is the configured body cap, or def when none was given.
func (n Network) BodyCap(def int64) int64 {
	if n.MaxBody > 0 {
		return n.MaxBody
	}
	return def
}

// preflightMaxBody bounds what pre-flight reads of any answer.
const preflightMaxBody = 1 << 20

// preflightAttempts bounds the token exchanges of pre-flight when the
// target answers 429.
const preflightAttempts = 3

// preflightToken exchanges the primary credentials, retrying a 429 after its
// Retry-After (1 s when absent) when that is within the cap. The answer is
// returned whatever its status: tokenVerdict judges it.
func preflightToken(ctx context.Context, hc *http.Client, cfg *Config) (*authtoken.Answer, error) {
	creds := authtoken.Credentials{MerchantID: cfg.Primary.MerchantID, SecretKey: cfg.Primary.SecretKey}
	where := fmt.Sprintf("POST %s%s", cfg.BaseURL, authtoken.Path)
	for attempt := 1; ; attempt++ {
		ans, err := authtoken.Exchange(ctx, hc, cfg.BaseURL, creds, authtoken.Options{MaxBody: preflightMaxBody, Timeout: cfg.Timeout})
		switch {
		case ans == nil && err != nil:
			return nil, &PreflightError{describeTransportError(cfg.BaseURL, err)}
		case errors.Is(err, httpclient.ErrBodyTooLarge):
			return nil, &PreflightError{fmt.Sprintf("%s answered %d with a body larger than %d bytes: is this the Merchant Payments API?", where, ans.Status, preflightMaxBody)}
		case err != nil && !errors.Is(err, authtoken.ErrNoToken) && !isStatusError(err):
			return nil, &PreflightError{fmt.Sprintf("%s answered %d but reading its body failed: %v", where, ans.Status, err)}
		case ans.Status != http.StatusTooManyRequests || attempt >= preflightAttempts:
			return ans, nil
		}
		wait, ok, err := httpclient.RetryAfterHeader(ans.Header, cfg.RetryAfterMax)
		if err != nil {
			return nil, &PreflightError{fmt.Sprintf("%s answered 429: %v", where, err)}
		}
		if !ok {
			wait = time.Second
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &PreflightError{fmt.Sprintf("%s answered 429; interrupted while waiting", where)}
		case <-t.C:
		}
	}
}

func isStatusError(err error) bool {
	var se *authtoken.StatusError
	return errors.As(err, &se)
}

// PreflightError says in one sentence why the run cannot start.
type PreflightError struct{ Msg string }

func (e *PreflightError) Error() string { return e.Msg }

// Facts are what pre-flight learned about the target.
type Facts struct {
	Environment string // TEST or LIVE, as the token answer states it (the key's prefix when it states neither)
	// Live is the most cautious reading of the key's prefix, the token
	// answer, the token's JWT claims and /cards/config (package liveguard):
	// writes with the primary credentials need --allow-live when it is set.
	Live bool
	// LiveWhy names the signals that made the credentials LIVE.
	LiveWhy string `json:",omitempty"`
	// EnvDisagreement says which signals contradict each other: a finding
	// about the target ("" when they agree).
	EnvDisagreement string `json:",omitempty"`
	// TokenProblem says how the pre-flight token answer breaks the token
	// schema ("" when it does not); the run goes on and the token specs fail.
	TokenProblem string `json:",omitempty"`
	Controls     bool   // the sandbox test controls answer
	ControlList  []string
}

// Preflight checks, once, that the target is reachable, speaks TLS properly
// and accepts the primary credentials, so that a misconfigured run stops with
// one clear message instead of a hundred failures. It also discovers the
// sandbox test controls: at ControlsURL when set, else at /_sandbox on the
// target's host.
func Preflight(ctx context.Context, cfg *Config) (Facts, error) {
	var f Facts
	hc := cfg.HTTPClient()
	ans, err := preflightToken(ctx, hc, cfg)
	if err != nil {
		return f, err
	}
	if f, err = tokenVerdict(cfg, ans); err != nil {
		return f, err
	}
	v := liveguard.Check(ctx, hc, cfg.BaseURL, cfg.Primary.SecretKey, ans.Token.Environment, ans.Token.AccessToken)
	f.Live, f.LiveWhy, f.EnvDisagreement = v.Live, v.Why, v.Disagreement

	f.Controls, f.ControlList, err = discoverControls(ctx, hc, cfg, ans.Header.Get(InstanceHeader))
	return f, err
}

// discoverControls finds the controls (see controls_origin.go for the origin
// rule); instance is the target's X-Sandbox-Instance. Controls the operator
// named (ControlsURL) that cannot be used are a configuration error naming
// the cause (a redirect, another status, not a sandbox); at the default
// place (/_sandbox on the base URL's origin) the target simply has none.
func discoverControls(ctx context.Context, hc *http.Client, cfg *Config, instance string) (bool, []string, error) {
	root, named := cfg.ControlsURL, cfg.ControlsURL != ""
	if !named {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil {
			return false, nil, nil
		}
		root = u.Scheme + "://" + u.Host + "/_sandbox"
	}
	caps, why := readCapabilities(ctx, hc, root)
	if why != "" {
		if named {
			return false, nil, &PreflightError{fmt.Sprintf("the controls URL %s (%s) cannot be used: %s", root, EnvControlsURL, why)}
		}
		return false, nil, nil
	}
	if !sameOrigin(root, cfg.BaseURL) {
		if err := confirmIdentity(ctx, hc, cfg, root, instance); err != nil {
			return false, nil, err
		}
	}
	cfg.ControlsURL = root
	return true, caps.Controls, nil
}

// capabilities is the answer of GET <controls>/capabilities.
type capabilities struct {
	Sandbox  bool     `json:"sandbox"`
	Controls []string `json:"controls"`
}

// readCapabilities asks the controls at root what they offer; why says in
// a few words why they cannot be used ("" when they can).
func readCapabilities(ctx context.Context, hc *http.Client, root string) (capabilities, string) {
	var caps capabilities
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/capabilities", nil)
	if err != nil {
		return caps, err.Error()
	}
	resp, err := hc.Do(req)
	if err != nil {
		return caps, "GET /capabilities: " + describeTransportError(root, err)
	}
	defer resp.Body.Close()
	raw, err := httpclient.ReadBody(resp.Body, preflightMaxBody)
	switch {
	case err != nil:
		return caps, fmt.Sprintf("GET /capabilities answered %d but reading its body failed: %v", resp.StatusCode, err)
	case resp.StatusCode != http.StatusOK:
		return caps, fmt.Sprintf("GET /capabilities answered %d", resp.StatusCode)
	case json.Unmarshal(raw, &caps) != nil || !caps.Sandbox:
		return caps, "GET /capabilities does not answer as sandbox controls ({\"sandbox\": true, ...})"
	}
	return caps, ""
}

func describeTransportError(base string, err error) string {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recordErr tls.RecordHeaderError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var redirErr *httpclient.RedirectError
	switch {
	case errors.As(err, &redirErr):
		return redirErr.Error()
	case errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr):
		return fmt.Sprintf("TLS certificate of %s not trusted: %v (use --insecure-tls only for a test server you trust)", base, err)
	case errors.As(err, &recordErr):
		return fmt.Sprintf("TLS handshake with %s failed: the server does not speak TLS on that port (try http://)", base)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot resolve the host of %s: %v", base, dnsErr)
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout"):
		return fmt.Sprintf("%s did not answer in time: %v", base, err)
	case errors.As(err, &opErr):
		return fmt.Sprintf("cannot reach %s: %v", base, opErr.Err)
	}
	return fmt.Sprintf("cannot reach %s: %v", base, err)
}
