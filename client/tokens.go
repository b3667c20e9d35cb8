package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// TokenBody is the body of POST /auth/token. It tells the curl renderer which
// string is the secret key, so the curl line shows $SECRET_KEY.
type TokenBody struct {
	MerchantID string `json:"merchantId"`
	SecretKey  string `json:"secretKey"`
}

// SecretKeyForCurl implements the hook the curl renderer looks for.
func (b TokenBody) SecretKeyForCurl() string { return b.SecretKey }

// TokenPath is the token exchange path below the base URL.
const TokenPath = "/auth/token"

// TokenSource fetches, caches and refreshes the access token of one set of
// credentials. Tokens are refreshed at 80% of expiresIn and after Invalidate.
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
	resp, err := ts.anon.Post(ctx, TokenPath, TokenBody{MerchantID: ts.merchantID, SecretKey: ts.secretKey})
	if err != nil {
		return "", &TokenError{MerchantID: ts.merchantID, Err: err}
	}
	if resp.Status != http.StatusOK && resp.Status != http.StatusCreated {
		return "", &TokenError{MerchantID: ts.merchantID, Status: resp.Status, Exchange: resp.Exchange}
	}
	var env struct {
		Data struct {
			AccessToken string      `json:"accessToken"`
			ExpiresIn   json.Number `json:"expiresIn"`
			Environment string      `json:"environment"`
			MerchantID  string      `json:"merchantId"`
		} `json:"data"`
	}
	if err := resp.JSON(&env); err != nil || env.Data.AccessToken == "" {
		return "", &TokenError{MerchantID: ts.merchantID, Status: resp.Status, Exchange: resp.Exchange, Err: fmt.Errorf("no data.accessToken in the answer")}
	}
	exp, err := env.Data.ExpiresIn.Float64()
	if err != nil || exp <= 0 {
		exp = 900
	}
	ts.token = env.Data.AccessToken
	ts.expiresIn = int64(exp)
	ts.refreshAt = time.Now().Add(time.Duration(exp * 0.8 * float64(time.Second)))
	ts.environment = env.Data.Environment
	ts.merchant = env.Data.MerchantID
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
