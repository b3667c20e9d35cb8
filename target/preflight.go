package target

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/sandbox"
)

// HTTPClient returns a client for this target: the configured timeout on
// every request and TLS verification unless InsecureTLS.
func (c *Config) HTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	if c.InsecureTLS {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // opted in by the user
	}
	return &http.Client{Timeout: c.Timeout, Transport: tr}
}

// PreflightError says in one sentence why the run cannot start.
type PreflightError struct{ Msg string }

func (e *PreflightError) Error() string { return e.Msg }

// Facts are what pre-flight learned about the target.
type Facts struct {
	Environment string // TEST or LIVE, from the token answer
	Controls    bool   // the sandbox test controls answer
	ControlList []string
}

// Preflight checks, once, that the target is reachable, speaks TLS properly
// and accepts the primary credentials, so that a misconfigured run stops with
// one clear message instead of a hundred failures. It also discovers the
// sandbox test controls: at ControlsURL when set, else at /_sandbox on the
// target's host.
func Preflight(ctx context.Context, cfg *Config) (Facts, error) {
	var f Facts
	hc := cfg.HTTPClient()
	body, _ := json.Marshal(map[string]string{"merchantId": cfg.Primary.MerchantID, "secretKey": cfg.Primary.SecretKey})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.BaseURL+"/auth/token", bytes.NewReader(body))
	if err != nil {
		return f, &PreflightError{fmt.Sprintf("base URL %s: %v", cfg.BaseURL, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return f, &PreflightError{describeTransportError(cfg.BaseURL, err)}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return f, &PreflightError{fmt.Sprintf("the target rejected the credentials of merchant %q (401 at POST /auth/token): check %s and %s", cfg.Primary.MerchantID, EnvMerchantID, EnvSecretKey)}
	case resp.StatusCode == http.StatusForbidden:
		return f, &PreflightError{fmt.Sprintf("the target refused merchant %q (403 at POST /auth/token): this machine's IP may not be whitelisted, or the merchant lacks KYB Tier 2 for LIVE", cfg.Primary.MerchantID)}
	case resp.StatusCode == http.StatusNotFound:
		return f, &PreflightError{fmt.Sprintf("POST %s/auth/token answered 404: is %s the merchant root (ending in /v1/merchant)?", cfg.BaseURL, cfg.BaseURL)}
	case resp.StatusCode >= 300:
		return f, &PreflightError{fmt.Sprintf("POST %s/auth/token answered %d: the target is not ready", cfg.BaseURL, resp.StatusCode)}
	}
	var tok struct {
		Data struct {
			Environment string `json:"environment"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &tok); err != nil || tok.Data.Environment == "" {
		return f, &PreflightError{fmt.Sprintf("POST %s/auth/token answered %d but not with an access token envelope: is this the Merchant Payments API?", cfg.BaseURL, resp.StatusCode)}
	}
	f.Environment = tok.Data.Environment

	f.Controls, f.ControlList, err = discoverControls(ctx, hc, cfg, resp.Header.Get(sandbox.InstanceHeader))
	return f, err
}

// discoverControls finds the controls (see controls_origin.go for the origin
// rule); instance is the target's X-Sandbox-Instance.
func discoverControls(ctx context.Context, hc *http.Client, cfg *Config, instance string) (bool, []string, error) {
	root := cfg.ControlsURL
	if root == "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil {
			return false, nil, nil
		}
		root = u.Scheme + "://" + u.Host + "/_sandbox"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/capabilities", nil)
	if err != nil {
		return false, nil, nil
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false, nil, nil
	}
	defer resp.Body.Close()
	var caps struct {
		Sandbox  bool     `json:"sandbox"`
		Controls []string `json:"controls"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&caps) != nil || !caps.Sandbox {
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

func describeTransportError(base string, err error) string {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var recordErr tls.RecordHeaderError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
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
