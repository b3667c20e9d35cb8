package sandbox

import (
	"net/http"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
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

// writeError answers code with the error envelope; msg is a string or []string.
func (s *Server) writeError(rc *reqCtx, code int, msg any) {
	e := errorEnvelope{
		Status:     "error",
		StatusCode: code,
		Message:    msg,
		Error:      http.StatusText(code),
		Timestamp:  ts(rc.now),
		Path:       rc.path,
	}
	if s.faults.On(fault.ErrorEnvelopeNoPath) {
		e.Path = ""
	}
	if s.faults.On(fault.ErrReasonWrong) {
		e.Error = http.StatusText(http.StatusBadRequest)
	}
	if s.faults.On(fault.ErrStatusCode400) {
		e.StatusCode = http.StatusBadRequest
	}
	if s.faults.On(fault.ErrTimestampHTTPDate) {
		e.Timestamp = rc.now.UTC().Format(http.TimeFormat)
	}
	writeJSON(rc.w, code, e)
}

// Validation failure: 400 with an array of class-validator style messages.
func (s *Server) badRequest(rc *reqCtx, msgs []string) {
	if s.faults.On(fault.ValidationNotArray) {
		s.writeError(rc, http.StatusBadRequest, strings.Join(msgs, "; "))
		return
	}
	s.writeError(rc, http.StatusBadRequest, msgs)
}

func (s *Server) writeGiftNotFound(rc *reqCtx, ref string) {
	code, msg := http.StatusNotFound, "Gift card order with reference '"+ref+"' not found"
	if s.faults.On(fault.GiftNotFound400) {
		code = http.StatusBadRequest
	}
	if s.faults.On(fault.GiftNotFoundNoRef) {
		msg = "Gift card order not found"
	}
	writeJSON(rc.w, code, giftNotFound{StatusCode: code, Message: msg, Error: http.StatusText(code)})
}
