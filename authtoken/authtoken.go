// Package authtoken is the one token exchange of the Merchant Payments API:
// POST {base}/auth/token with merchantId and secretKey, answered by an
// access token in Envelope A. It builds the request body (also for the load
// scenario that times the exchange), sends it with a context and a timeout,
// reads the answer bounded and decodes the token. Callers keep their policy:
// caching and refresh, 429 retries, what a refusal means to them.
package authtoken

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/redact"
)

// Path is the exchange path below the merchant root.
const Path = "/auth/token"

// Defaults of an exchange.
const (
	// DefaultMaxBody bounds the answer read (a sane one is a few hundred bytes).
	DefaultMaxBody = 64 << 10
	// DefaultLifetime is the lifetime the document states (expiresIn 900),
	// used when an answer states none.
	DefaultLifetime = 900 * time.Second
	// RefreshFraction is the share of its lifetime after which every cache
	// of the harness renews a token: early enough that no request meets its
	// expiry, late enough that a token is reused (AUTH-15).
	RefreshFraction = 0.8
)

// Credentials are the body of the exchange.
type Credentials struct {
	MerchantID string `json:"merchantId"`
	SecretKey  string `json:"secretKey"`
}

// SecretKeyForCurl is the hook a curl renderer looks for, so the line shows
// $SECRET_KEY instead of the key.
func (c Credentials) SecretKeyForCurl() string { return c.SecretKey }

// Body is the wire form of the exchange request.
func (c Credentials) Body() []byte {
	b, _ := json.Marshal(c) // two strings: cannot fail
	return b
}

// ParseCredentials reads an exchange request body (what a guard or a proxy
// sees on the wire); ok is false when it carries no secret key.
func ParseCredentials(body []byte) (Credentials, bool) {
	var c Credentials
	if json.Unmarshal(body, &c) != nil || c.SecretKey == "" {
		return Credentials{}, false
	}
	return c, true
}

// Token is a decoded token answer.
type Token struct {
	AccessToken string
	TokenType   string
	ExpiresIn   time.Duration // as stated; 0 when absent or not a positive number
	Environment string        // TEST or LIVE as stated ("" when absent)
	MerchantID  string
	// Unwrapped is set when the token is a top-level member instead of in
	// Envelope A's data: usable, but the answer breaks the document.
	Unwrapped bool
}

// Lifetime is ExpiresIn, or DefaultLifetime when the answer stated none.
func (t Token) Lifetime() time.Duration {
	if t.ExpiresIn > 0 {
		return t.ExpiresIn
	}
	return DefaultLifetime
}

// RefreshAt is when a cache renews the token it obtained at obtained
// (RefreshFraction of its lifetime).
func (t Token) RefreshAt(obtained time.Time) time.Time {
	return obtained.Add(time.Duration(float64(t.Lifetime()) * RefreshFraction))
}

// Answer is what the target answered to an exchange.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte // at most the bound, what was read when reading failed
	Token  Token  // set when the exchange succeeded
}

// ErrNoToken is a 2xx answer carrying no access token.
var ErrNoToken = errors.New("no access token (no data.accessToken)")

// StatusError is a non-2xx answer.
type StatusError struct {
	Code       int
	RetryAfter string // the Retry-After header as sent
	Message    string // the error envelope's message, redacted and escaped ("" when none)
}

func (e *StatusError) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("token exchange answered %d: %s", e.Code, e.Message)
	}
	return fmt.Sprintf("token exchange answered %d", e.Code)
}

// Doer sends a request: an *http.Client from httpclient, or an adapter that
// records the exchange (client.TokenSource).
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Options bound an exchange; zero values take the defaults.
type Options struct {
	MaxBody int64
	Timeout time.Duration
}

// Exchange trades c for a token at baseURL+Path. The secret key is
// registered for redaction before anything is sent, and the token learned.
// A transport failure is returned as is with a nil Answer; otherwise the
// Answer holds what the target said, and the error is a body read failure
// (errors.Is httpclient.ErrBodyTooLarge when over the bound), a
// *StatusError, or ErrNoToken.
func Exchange(ctx context.Context, d Doer, baseURL string, c Credentials, o Options) (*Answer, error) {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Timeout <= 0 {
		o.Timeout = httpclient.DefaultTimeout
	}
	redact.RegisterCredentials(c.MerchantID, c.SecretKey)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+Path, bytes.NewReader(c.Body()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := d.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := httpclient.ReadBody(resp.Body, o.MaxBody)
	ans := &Answer{Status: resp.StatusCode, Header: resp.Header, Body: raw}
	if err != nil {
		return ans, fmt.Errorf("token exchange answered %d but reading its body failed: %w", resp.StatusCode, err)
	}
	ans.Token, err = Decode(resp.StatusCode, resp.Header, raw)
	return ans, err
}

// Decode reads the token of an exchange answer: a *StatusError for a
// non-2xx status, ErrNoToken for a body without an access token. The token
// found is learned by the redactor.
func Decode(status int, h http.Header, body []byte) (Token, error) {
	var doc map[string]any
	_ = json.Unmarshal(body, &doc) // not JSON: no members, so no token
	if status < 200 || status > 299 {
		return Token{}, &StatusError{Code: status, RetryAfter: h.Get("Retry-After"), Message: envelopeMessage(doc)}
	}
	data, _ := doc["data"].(map[string]any)
	t := tokenOf(data)
	if t.AccessToken == "" {
		t = tokenOf(doc)
		t.Unwrapped = true
	}
	if t.AccessToken == "" {
		return Token{}, fmt.Errorf("token exchange answered %d: %w", status, ErrNoToken)
	}
	redact.Learn(t.AccessToken)
	return t, nil
}

func tokenOf(m map[string]any) Token {
	str := func(k string) string { s, _ := m[k].(string); return s }
	return Token{AccessToken: str("accessToken"), TokenType: str("tokenType"), ExpiresIn: seconds(m["expiresIn"]),
		Environment: str("environment"), MerchantID: str("merchantId")}
}

// seconds reads a positive number of seconds (a JSON number or a numeric
// string); anything else is 0.
func seconds(v any) time.Duration {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case string:
		f, _ = strconv.ParseFloat(x, 64)
	}
	if f <= 0 || f > 1e9 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// envelopeMessage is the error envelope's message (a string or an array of
// strings), made safe for a terminal.
func envelopeMessage(doc map[string]any) string {
	var s string
	switch m := doc["message"].(type) {
	case string:
		s = m
	case []any:
		b, _ := json.Marshal(m)
		s = string(b)
	}
	s = redact.Safe(s) // before cutting: a cut secret would escape the mask
	const max = 200
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
