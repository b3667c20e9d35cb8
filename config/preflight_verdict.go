package config

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/schemas"
)

// tokenVerdict decides from the pre-flight token answer whether the run can
// start. It refuses only what makes every spec untestable: rejected
// credentials (401, 403), a wrong base URL (404), a target that is not ready
// (another status without a token) and an answer carrying no access token at
// all. A token answer that carries a token but breaks the token schema is
// the target breaking a rule: the run goes on (the token specs fail) and the
// problem is kept in Facts.TokenProblem.
func tokenVerdict(cfg *Config, ans *authtoken.Answer) (Facts, error) {
	var f Facts
	status, where := ans.Status, fmt.Sprintf("POST %s%s", cfg.BaseURL, authtoken.Path)
	switch {
	case status == http.StatusUnauthorized:
		return f, &PreflightError{fmt.Sprintf("the target rejected the credentials of merchant %q (401 at POST %s): check %s and %s", cfg.Primary.MerchantID, authtoken.Path, EnvMerchantID, EnvSecretKey)}
	case status == http.StatusForbidden:
		return f, &PreflightError{fmt.Sprintf("the target refused merchant %q (403 at POST %s): this machine's IP may not be whitelisted, or the merchant lacks KYB Tier 2 for LIVE", cfg.Primary.MerchantID, authtoken.Path)}
	case status == http.StatusNotFound:
		return f, &PreflightError{fmt.Sprintf("%s answered 404: is %s the merchant root (ending in /v1/merchant)?", where, cfg.BaseURL)}
	case status < 200 || status > 299:
		return f, &PreflightError{fmt.Sprintf("%s answered %d: the target is not ready", where, status)}
	case ans.Token.AccessToken == "":
		return f, &PreflightError{fmt.Sprintf("%s answered %d but not with an access token (no accessToken): is this the Merchant Payments API?", where, status)}
	}
	if status != http.StatusOK {
		f.TokenProblem = fmt.Sprintf("the token answer has HTTP status %d, not 200", status)
	} else if err := schemas.Validate(schemas.TokenResponse, ans.Body); err != nil {
		f.TokenProblem = "the token answer breaks the token schema: " + err.Error()
	}
	f.Environment = ans.Token.Environment
	if f.Environment != "TEST" && f.Environment != "LIVE" {
		f.Environment = environmentFromKey(cfg.Primary.SecretKey)
	}
	return f, nil
}

// environmentFromKey is the fallback when the token answer states no valid
// environment: sandbox secret keys begin with sk_test_ (the document); any
// other key is treated as LIVE, so destructive specs still need --allow-live.
func environmentFromKey(key string) string {
	if strings.HasPrefix(key, "sk_test_") {
		return "TEST"
	}
	return "LIVE"
}
