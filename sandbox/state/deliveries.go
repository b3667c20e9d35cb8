package state

import "encoding/json"

// maxDeliveries bounds the log of delivery attempts.
const maxDeliveries = 100

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

// LogDelivery adds an attempt to the log, forgetting the oldest beyond maxDeliveries.
func (w *World) LogDelivery(d Delivery) {
	w.delMu.Lock()
	if len(w.deliveries) >= maxDeliveries {
		copy(w.deliveries, w.deliveries[1:])
		w.deliveries = w.deliveries[:maxDeliveries-1]
	}
	w.deliveries = append(w.deliveries, d)
	w.delMu.Unlock()
}

// DeliveryLog is a copy of the log, oldest first.
func (w *World) DeliveryLog() []Delivery {
	w.delMu.Lock()
	defer w.delMu.Unlock()
	return append([]Delivery{}, w.deliveries...)
}
