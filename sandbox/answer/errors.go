package answer

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// errorEnvelope is the documented error body. Message is a string, or an array
// of constraint strings for payload validation failures.
type errorEnvelope struct {
	Status     string `json:"status"`
	StatusCode int    `json:"statusCode"`
	Message    any    `json:"message"`
	Error      string `json:"error"`
	Timestamp  string `json:"timestamp"`
	Path       string `json:"path,omitempty"`
}

// giftNotFound is the documented reduced 404 of gift order look-ups.
type giftNotFound struct {
	StatusCode int    `json:"statusCode"`
	Message    string `json:"message"`
	Error      string `json:"error"`
}

// Error answers code with the error envelope; msg is a string or []string.
func (q *Req) Error(code int, msg any) {
	e := errorEnvelope{
		Status:     "error",
		StatusCode: code,
		Message:    msg,
		Error:      http.StatusText(code),
		Timestamp:  wording.Timestamp(q.Now),
		Path:       q.Path,
	}
	if q.out.faults.On(fault.ErrorEnvelopeNoPath) {
		e.Path = ""
	}
	if q.out.faults.On(fault.ErrReasonWrong) {
		e.Error = http.StatusText(http.StatusBadRequest)
	}
	if q.out.faults.On(fault.ErrStatusCode400) {
		e.StatusCode = http.StatusBadRequest
	}
	if q.out.faults.On(fault.ErrTimestampHTTPDate) {
		e.Timestamp = q.Now.UTC().Format(http.TimeFormat)
	}
	writeJSON(q.W, code, e)
}

// BadRequest is a validation failure: 400 with an array of class-validator style messages.
func (q *Req) BadRequest(msgs []string) {
	if q.out.faults.On(fault.ValidationNotArray) {
		q.Error(http.StatusBadRequest, strings.Join(msgs, "; "))
		return
	}
	q.Error(http.StatusBadRequest, msgs)
}

// GiftNotFound answers the reduced 404 of gift order look-ups.
func (q *Req) GiftNotFound(ref string) {
	code, msg := http.StatusNotFound, "Gift card order with reference '"+ref+"' not found"
	if q.out.faults.On(fault.GiftNotFound400) {
		code = http.StatusBadRequest
	}
	if q.out.faults.On(fault.GiftNotFoundNoRef) {
		msg = "Gift card order not found"
	}
	writeJSON(q.W, code, giftNotFound{StatusCode: code, Message: msg, Error: http.StatusText(code)})
}
