// Package controls drives the reference sandbox's test controls (/_sandbox):
// clock, card transactions, settlement, webhook URL, balances, IP whitelist,
// gift order hold, latency, rate limits and reset. These are a harness ↔
// sandbox contract (docs/sandbox.md), not part of the Merchant Payments API;
// other targets simply offer none and the specs needing them are skipped.
package controls

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
)

// AdminHeader carries the admin key.
const AdminHeader = "X-Sandbox-Admin-Key"

// Client talks to the test controls. A nil *Client is valid: every method
// returns ErrUnavailable.
type Client struct {
	c *client.Client
}

// ErrUnavailable is returned by a nil Client.
var ErrUnavailable = fmt.Errorf("the target offers no sandbox test controls")

// New returns a controls client rooted at controlsURL (…/_sandbox). base must
// be a client without a token source; it is re-rooted and given the admin key.
func New(base *client.Client, controlsURL, adminKey string) *Client {
	// The controls are not the target's API: outside its rate limits, and
	// shown as $MPH_CONTROLS_URL in reproduce lines.
	c := base.WithoutAuth().WithBaseURLVar(controlsURL, config.EnvControlsURL).WithOwnGate()
	if adminKey != "" {
		c = c.WithHeader(AdminHeader, adminKey)
	}
	return &Client{c: c}
}

// HTTP returns the underlying client (for raw calls); nil for a nil Client.
func (k *Client) HTTP() *client.Client {
	if k == nil {
		return nil
	}
	return k.c
}

// Error is a control call answered with a non-2xx status.
type Error struct {
	Call     string
	Status   int
	Exchange *client.Exchange
}

func (e *Error) Error() string {
	return fmt.Sprintf("sandbox control %s answered HTTP %d: %s", e.Call, e.Status, e.Exchange.ResponseBody())
}

func (k *Client) call(ctx context.Context, method, path string, body any, out any) (*client.Response, error) {
	if k == nil {
		return nil, ErrUnavailable
	}
	resp, err := k.c.Do(ctx, client.Request{Method: method, Path: path, Body: body})
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return resp, &Error{Call: method + " " + path, Status: resp.Status, Exchange: resp.Exchange}
	}
	if out != nil && len(resp.Body) > 0 {
		if err := resp.JSON(out); err != nil {
			return resp, fmt.Errorf("sandbox control %s %s: decoding answer: %w", method, path, err)
		}
	}
	return resp, nil
}

// Capabilities is the answer of GET /capabilities.
type Capabilities struct {
	Sandbox  bool     `json:"sandbox"`
	BasePath string   `json:"basePath"`
	Controls []string `json:"controls"`
}

// Has reports whether the named control is offered.
func (c Capabilities) Has(name string) bool {
	for _, x := range c.Controls {
		if x == name {
			return true
		}
	}
	return false
}

// Capabilities lists the offered controls (no admin key needed).
func (k *Client) Capabilities(ctx context.Context) (Capabilities, error) {
	var out Capabilities
	_, err := k.call(ctx, http.MethodGet, "/capabilities", nil, &out)
	return out, err
}

// Clock is the sandbox clock.
type Clock struct {
	Now           string      `json:"now"`
	OffsetSeconds json.Number `json:"offsetSeconds"`
}

// Clock reads the sandbox clock.
func (k *Client) Clock(ctx context.Context) (Clock, error) {
	var out Clock
	_, err := k.call(ctx, http.MethodGet, "/clock", nil, &out)
	return out, err
}

// AdvanceClock moves the sandbox clock forward.
func (k *Client) AdvanceClock(ctx context.Context, seconds int64) (Clock, error) {
	var out Clock
	_, err := k.call(ctx, http.MethodPost, "/clock/advance", map[string]any{"seconds": seconds}, &out)
	return out, err
}

// Reset puts all sandbox state back to the seed.
func (k *Client) Reset(ctx context.Context) error {
	_, err := k.call(ctx, http.MethodPost, "/reset", nil, nil)
	return err
}

// Transaction is the answer of a simulated card transaction.
type Transaction struct {
	TransactionID string      `json:"transactionId"`
	Approved      bool        `json:"approved"`
	DeclineReason *string     `json:"declineReason"`
	BalanceAmount json.Number `json:"balanceAmount"`
}

// Transact simulates a card transaction of amount (a decimal string, e.g. "12.50").
func (k *Client) Transact(ctx context.Context, cardID string, amount json.Number) (Transaction, error) {
	var out Transaction
	_, err := k.call(ctx, http.MethodPost, "/cards/"+url.PathEscape(cardID)+"/transactions", map[string]any{"amount": amount}, &out)
	return out, err
}

// Settle settles a transaction; the raw response is returned (a second
// settle is a 409 answer, not an error of this method).
func (k *Client) Settle(ctx context.Context, transactionID string) (*client.Response, error) {
	if k == nil {
		return nil, ErrUnavailable
	}
	return k.c.Post(ctx, "/transactions/"+url.PathEscape(transactionID)+"/settle", nil)
}

// SetWebhook configures the webhook URL and secret of a merchant.
func (k *Client) SetWebhook(ctx context.Context, merchantID, hookURL, secret string) error {
	_, err := k.call(ctx, http.MethodPut, "/merchants/"+url.PathEscape(merchantID)+"/webhook", map[string]any{"url": hookURL, "secret": secret}, nil)
	return err
}

// Deliveries returns the last delivery attempts as raw JSON values.
func (k *Client) Deliveries(ctx context.Context) ([]map[string]any, error) {
	var out []map[string]any
	resp, err := k.call(ctx, http.MethodGet, "/webhooks/deliveries", nil, nil)
	if err != nil {
		return nil, err
	}
	// Accept either a bare array or {"deliveries": [...]}.
	if err := resp.JSON(&out); err != nil {
		var wrapped struct {
			Deliveries []map[string]any `json:"deliveries"`
		}
		if err2 := resp.JSON(&wrapped); err2 != nil {
			return nil, err
		}
		out = wrapped.Deliveries
	}
	return out, nil
}

// PendingDeliveries reports how many webhook deliveries the sandbox still
// has in flight; known is false when the control does not say.
func (k *Client) PendingDeliveries(ctx context.Context) (n int, known bool, err error) {
	var out struct {
		Pending *int `json:"pending"`
	}
	if _, err := k.call(ctx, http.MethodGet, "/webhooks/deliveries", nil, &out); err != nil {
		return 0, false, err
	}
	if out.Pending == nil {
		return 0, false, nil
	}
	return *out.Pending, true, nil
}

// Balances of one merchant and environment.
type Balances struct {
	VaultBalance  json.Number `json:"vaultBalance"`
	NgnBalance    json.Number `json:"ngnBalance"`
	FeesCollected json.Number `json:"feesCollected"`
	CardBalances  json.Number `json:"cardBalances"` // sum of the card balances
	SpentAmount   json.Number `json:"spentAmount"`
	Cards         int         `json:"cards"`
}

// Balances reads a merchant's balances.
func (k *Client) Balances(ctx context.Context, merchantID, environment string) (Balances, error) {
	var out Balances
	_, err := k.call(ctx, http.MethodGet, "/merchants/"+url.PathEscape(merchantID)+"?environment="+url.QueryEscape(environment), nil, &out)
	return out, err
}

// SetBalances sets the vault and/or NGN balance (nil leaves one unchanged).
func (k *Client) SetBalances(ctx context.Context, merchantID, environment string, vault, ngn *json.Number) error {
	body := map[string]any{"environment": environment}
	if vault != nil {
		body["vaultBalance"] = *vault
	}
	if ngn != nil {
		body["ngnBalance"] = *ngn
	}
	_, err := k.call(ctx, http.MethodPut, "/merchants/"+url.PathEscape(merchantID)+"/balances", body, nil)
	return err
}

// SetIPWhitelist sets a merchant's IP whitelist (empty: none).
func (k *Client) SetIPWhitelist(ctx context.Context, merchantID, environment string, ips []string) error {
	if ips == nil {
		ips = []string{}
	}
	_, err := k.call(ctx, http.MethodPut, "/merchants/"+url.PathEscape(merchantID)+"/ip-whitelist", map[string]any{"environment": environment, "ips": ips}, nil)
	return err
}

// HoldGiftOrder holds (or releases) a gift order in PROCESSING.
func (k *Client) HoldGiftOrder(ctx context.Context, reference string, hold bool) error {
	_, err := k.call(ctx, http.MethodPut, "/gift-orders/"+url.PathEscape(reference)+"/hold", map[string]any{"hold": hold}, nil)
	return err
}

// SetLatency adds ms to every merchant API answer.
func (k *Client) SetLatency(ctx context.Context, ms int) error {
	_, err := k.call(ctx, http.MethodPut, "/latency", map[string]any{"ms": ms}, nil)
	return err
}

// RateLimit of one endpoint group.
type RateLimit struct {
	Rate  float64 `json:"rate"`
	Burst int     `json:"burst,omitempty"`
}

// RateLimits reads the rate limits per group.
func (k *Client) RateLimits(ctx context.Context) (map[string]RateLimit, error) {
	out := map[string]RateLimit{}
	_, err := k.call(ctx, http.MethodGet, "/rate-limits", nil, &out)
	return out, err
}

// SetRateLimits changes the given groups; {"rate":0} disables a group.
func (k *Client) SetRateLimits(ctx context.Context, groups map[string]RateLimit) error {
	_, err := k.call(ctx, http.MethodPut, "/rate-limits", groups, nil)
	return err
}
