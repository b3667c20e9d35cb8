// Package webhook is how the sandbox delivers card events: the payload and
// its kinds, the body, signature and redelivery under the settings of the
// webhook dimensions, the POST with its own bounded client (a slow
// receiver cannot exhaust connections shared with anything else), and the
// dispatch to a merchant's URL (Dispatcher: the queue and timing settings,
// the deliveries in flight, every attempt logged in the world).
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Timeout bounds one delivery.
const Timeout = 5 * time.Second

// Kinds are the event kinds of the API document, by simulation event_type.
var Kinds = map[string]string{
	"authorization": "virtualcard.transaction.authorization",
	"settlement":    "virtualcard.transaction.settlement",
	"reversal":      "virtualcard.transaction.reversed",
	"decline":       "virtualcard.transaction.declined",
}

// Data is an event's card transaction.
type Data struct {
	Reference     string       `json:"reference"`
	CardID        string       `json:"cardId"`
	CardReference string       `json:"cardReference"`
	Amount        money.Amount `json:"amount"`
	Currency      string       `json:"currency"`
	Simulated     bool         `json:"simulated"`
}

// Payload is an event as the sandbox sends it by default.
type Payload struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	CreatedAt   string `json:"createdAt"`
	Environment string `json:"environment"`
	MerchantID  string `json:"merchantId"`
	Data        Data   `json:"data"`
}

// Sender delivers events over HTTP with its own client, so a slow
// receiver cannot exhaust connections shared with anything else, in the
// forms the settings choose.
type Sender struct {
	client   *http.Client
	variants variant.Set
}

// NewSender returns the sender of a sandbox with the settings vs.
func NewSender(vs variant.Set) *Sender {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return &Sender{variants: vs, client: &http.Client{
		Transport: tr,
		Timeout:   Timeout + time.Second, // the per-request context fires first
		// Never follow redirects: a delivery is one POST to the configured URL.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Post delivers body as event kind id to url, signed by sig.
func (h *Sender) Post(ctx context.Context, url, kind, id string, sig http.Header, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-MPH-Event", kind)
	req.Header.Set("X-MPH-Delivery", id)
	for k, v := range sig {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", "mph-sandbox-webhooks/1")
	resp, err := h.client.Do(req)
	if err != nil {
		var ne net.Error
		if ctx.Err() == context.DeadlineExceeded || (errors.As(err, &ne) && ne.Timeout()) {
			return 0, errTimeout
		}
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

type timeoutError struct{}

func (timeoutError) Error() string { return "timeout after 5 s" }

var errTimeout error = timeoutError{}

// Body is a delivery's body under the payload settings.
func (s *Sender) Body(p Payload) []byte {
	var body []byte
	switch {
	case s.variants.On(variant.WebhookPayloadShape):
		body, _ = json.Marshal(map[string]any{"event": p.Type, "id": p.ID, "sentAt": p.CreatedAt, "payload": p.Data})
	case s.variants.On(variant.WebhookPayloadFlat):
		body, _ = json.Marshal(map[string]any{"event_type": p.Type, "reference": p.Data.Reference, "card_id": p.Data.CardID,
			"amount": p.Data.Amount, "currency": p.Data.Currency, "occurred_at": p.CreatedAt})
	default:
		body, _ = json.Marshal(p)
	}
	return body
}

// Redelivery is the second attempt's id and body ("" when none).
func (s *Sender) Redelivery(id string, body []byte) (string, []byte) {
	switch {
	case s.variants.On(variant.Redeliver):
		return id, body
	case s.variants.On(variant.RedeliverDistinct):
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			return id, body
		}
		m["attempt"] = 2
		if _, has := m["id"]; has {
			m["id"] = "evt_" + ids.Hex(12)
		}
		b, _ := json.Marshal(m)
		return "evt_" + ids.Hex(12), b
	}
	return "", nil
}

// Sign signs a delivery body under the signature settings: the headers
// and the signature logged.
func (s *Sender) Sign(secret string, body []byte) (http.Header, string) {
	h := http.Header{}
	mac := func(msg []byte) []byte {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(msg)
		return m.Sum(nil)
	}
	switch {
	case s.variants.On(variant.Unsigned):
		return h, ""
	case s.variants.On(variant.SignatureTimestamped):
		t := strconv.FormatInt(time.Now().Unix(), 10)
		sig := "t=" + t + ",v1=" + hex.EncodeToString(mac([]byte(t+"."+string(body))))
		h.Set("X-Signature", sig)
		return h, sig
	case s.variants.On(variant.SignatureBase64):
		sig := base64.StdEncoding.EncodeToString(mac(body))
		h.Set("X-Webhook-Signature", sig)
		return h, sig
	}
	sig := sign(secret, body)
	h.Set("X-MPH-Signature", sig)
	return h, sig
}

func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}
