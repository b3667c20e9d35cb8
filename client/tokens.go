package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/merchant-harness/mph/authtoken"
)

// TokenBody is the body of POST /auth/token. It tells the curl renderer which
// string is the secret key, so the curl line shows $MPH_SECRET_KEY.
type TokenBody = authtoken.Credentials

// TokenPath is the token exchange path below the base URL.
const TokenPath = authtoken.Path

// TokenSource fetches, caches and refreshes the access token of one set of
// credentials. Tokens are refreshed as authtoken says (RefreshAt: 80% of
// expiresIn) and after Invalidate.
type TokenSource struct {
	anon       *Client // client without auth used for the exchange
	merchantID string
	secretKey  string

	mu          sync.Mutex
	token       string
	refreshAt   time.Time
	environment string
	merchant    string
	expiresIn   int64
}

// NewTokenSource returns a token source exchanging the credentials through
// anon (a client with no token source of its own).
func NewTokenSource(anon *Client, merchantID, secretKey string) *TokenSource {
	return &TokenSource{anon: anon.WithoutAuth().RawAuth(), merchantID: merchantID, secretKey: secretKey}
}

// MerchantID returns the merchant of the credentials.
func (ts *TokenSource) MerchantID() string { return ts.merchantID }

// TokenError is a failed token exchange.
type TokenError struct {
	MerchantID string
	Status     int
	Exchange   *Exchange
	Err        error
}

func (e *TokenError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("token exchange for %s failed: %v", e.MerchantID, e.Err)
	}
	return fmt.Sprintf("token exchange for %s failed: HTTP %d", e.MerchantID, e.Status)
}
func (e *TokenError) Unwrap() error { return e.Err }

// Token returns a valid cached token, fetching a new one when needed.
func (ts *TokenSource) Token(ctx context.Context) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.token != "" && time.Now().Before(ts.refreshAt) {
		return ts.token, nil
	}
	d := &recordingDoer{c: ts.anon, merchantID: ts.merchantID, secretKey: ts.secretKey}
	ans, err := authtoken.Exchange(ctx, d, ts.anon.BaseURL(), TokenBody{MerchantID: ts.merchantID, SecretKey: ts.secretKey},
		authtoken.Options{MaxBody: ts.anon.o.MaxBody, Timeout: ts.anon.budget()})
	if err != nil {
		te := &TokenError{MerchantID: ts.merchantID, Exchange: d.ex, Err: err}
		if ans != nil {
			te.Status = ans.Status
		}
		return "", te
	}
	tok := ans.Token
	ts.token = tok.AccessToken
	ts.expiresIn = int64(tok.Lifetime() / time.Second)
	ts.refreshAt = tok.RefreshAt(time.Now())
	ts.environment = tok.Environment
	ts.merchant = tok.MerchantID
	return ts.token, nil
}

// Invalidate drops tok if it is the cached token, so the next call fetches anew.
func (ts *TokenSource) Invalidate(tok string) {
	ts.mu.Lock()
	if ts.token == tok {
		ts.token = ""
	}
	ts.mu.Unlock()
}

// Environment returns the environment stated by the last token answer
// ("" before the first exchange).
func (ts *TokenSource) Environment() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.environment
}

// budget bounds one call including its 429 retries and the gate's waits.
func (c *Client) budget() time.Duration {
	return c.o.Gate.longestWait() + time.Duration(c.o.MaxRetries+1)*c.o.Timeout
}

// recordingDoer sends authtoken's request through a Client, so the exchange
// is recorded (with $MPH_SECRET_KEY in its curl line) and passes the gate.
type recordingDoer struct {
	c          *Client
	merchantID string
	secretKey  string    // shown as $MPH_SECRET_KEY in the curl line
	ex         *Exchange // the last recorded exchange
}

// curlBody is a ready JSON body that names its credentials to the curl
// renderer.
type curlBody struct {
	raw     []byte
	id, key string
}

func (b curlBody) MarshalJSON() ([]byte, error) { return b.raw, nil }

func (d *recordingDoer) Do(hr *http.Request) (*http.Response, error) {
	path, ok := strings.CutPrefix(hr.URL.String(), d.c.BaseURL())
	if !ok {
		return nil, fmt.Errorf("token exchange URL %s is not below %s", hr.URL.Redacted(), d.c.BaseURL())
	}
	raw, err := io.ReadAll(hr.Body) // our own request body, a few bytes
	if err != nil {
		return nil, err
	}
	resp, err := d.c.Do(hr.Context(), Request{Method: hr.Method, Path: path, Body: curlBody{raw, d.merchantID, d.secretKey}, Header: hr.Header})
	if resp != nil {
		d.ex = resp.Exchange
	}
	if err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: resp.Status, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(resp.Body)), Request: hr}, nil
}
