package sandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"

	"github.com/merchant-harness/mph/money"
)

const (
	deliveryTimeout = 5 * time.Second
	maxDeliveries   = 100
)

// Event kinds of the API document, by simulation event_type.
var eventKinds = map[string]string{
	"authorization": "virtualcard.transaction.authorization",
	"settlement":    "virtualcard.transaction.settlement",
	"reversal":      "virtualcard.transaction.reversed",
	"decline":       "virtualcard.transaction.declined",
}

// Delivery is one logged webhook delivery attempt (GET /_sandbox/webhooks/deliveries).
type Delivery struct {
	ID          string          `json:"id"`
	MerchantID  string          `json:"merchantId"`
	Environment string          `json:"environment"`
	Type        string          `json:"type"`
	URL         string          `json:"url"`
	Reference   string          `json:"reference"`
	AttemptedAt string          `json:"attemptedAt"`
	DurationMs  int64           `json:"durationMs"`
	StatusCode  int             `json:"statusCode"` // 0 when no HTTP answer
	Delivered   bool            `json:"delivered"`
	Error       *string         `json:"error"`
	Signature   string          `json:"signature"`
	Payload     json.RawMessage `json:"payload"`
}

type eventData struct {
	Reference     string       `json:"reference"`
	CardID        string       `json:"cardId"`
	CardReference string       `json:"cardReference"`
	Amount        money.Amount `json:"amount"`
	Currency      string       `json:"currency"`
	Simulated     bool         `json:"simulated"`
}

type eventPayload struct {
	ID          string    `json:"id"`
	Type        string    `json:"type"`
	CreatedAt   string    `json:"createdAt"`
	Environment string    `json:"environment"`
	MerchantID  string    `json:"merchantId"`
	Data        eventData `json:"data"`
}

// webhookSender delivers events over HTTP with its own client, so a slow
// receiver cannot exhaust connections shared with anything else.
type webhookSender struct {
	client *http.Client
}

func newWebhookSender() *webhookSender {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return &webhookSender{client: &http.Client{
		Transport: tr,
		Timeout:   deliveryTimeout + time.Second, // the per-request context fires first
		// Never follow redirects: a delivery is one POST to the configured URL.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// dispatch sends kind for card c of st and logs the attempt. It returns the
// configured URL ("" when none), whether it was delivered, and the skip reason.
// It must be called without st.mu held: delivery can take up to 5 s.
func (s *Server) dispatch(ctx context.Context, w *world, st *envState, kind string, d eventData) (url string, ok bool, skip string) {
	cfg := st.m.webhook.Load()
	if cfg == nil || cfg.URL == "" {
		return "", false, "no_webhook_url_configured"
	}
	if s.queueDelivery(ctx, w, st, kind, d) {
		return cfg.URL, true, ""
	}
	s.pending.Add(1)
	defer s.pending.Add(-1)
	now := s.clk.Now()
	p := eventPayload{
		ID:          "evt_" + randHex(12),
		Type:        kind,
		CreatedAt:   ts(now),
		Environment: st.env.String(),
		MerchantID:  st.m.id,
		Data:        d,
	}
	if s.faults.On(fault.WebhookDeliveredKind) {
		p.Type = strings.TrimPrefix(kind, "virtualcard.transaction.")
	}
	body := s.eventBody(p)
	hdr, sig := s.signatureHeaders(cfg.Secret, body)
	del := Delivery{
		ID: p.ID, MerchantID: st.m.id, Environment: p.Environment, Type: kind,
		URL: cfg.URL, Reference: d.Reference, AttemptedAt: p.CreatedAt,
		Signature: sig, Payload: body,
	}
	start := time.Now()
	code, err := s.hooks.post(ctx, cfg.URL, kind, p.ID, hdr, body)
	if id2, body2 := s.redelivery(p.ID, body); err == nil && body2 != nil {
		hdr2, _ := s.signatureHeaders(cfg.Secret, body2)
		code, err = s.hooks.post(ctx, cfg.URL, kind, id2, hdr2, body2) // at-least-once
	}
	del.DurationMs = time.Since(start).Milliseconds()
	del.StatusCode = code
	switch {
	case err != nil:
		skip = "delivery_failed: " + err.Error()
	case code < 200 || code > 299:
		skip = "delivery_failed: HTTP " + strconv.Itoa(code)
	default:
		ok = true
	}
	if !ok {
		e := skip
		del.Error = &e
	}
	del.Delivered = ok
	w.logDelivery(del)
	s.log.Info("webhook delivery", "event", kind, "id", p.ID, "merchant", st.m.id, "status", code, "delivered", ok)
	return cfg.URL, ok, skip
}

func (h *webhookSender) post(ctx context.Context, url, kind, id string, sig http.Header, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, deliveryTimeout)
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

func (w *world) logDelivery(d Delivery) {
	w.delMu.Lock()
	if len(w.deliveries) >= maxDeliveries {
		copy(w.deliveries, w.deliveries[1:])
		w.deliveries = w.deliveries[:maxDeliveries-1]
	}
	w.deliveries = append(w.deliveries, d)
	w.delMu.Unlock()
}

func (w *world) deliveryLog() []Delivery {
	w.delMu.Lock()
	defer w.delMu.Unlock()
	return append([]Delivery{}, w.deliveries...)
}
