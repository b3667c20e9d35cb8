package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/wording"
)

func ts(t time.Time) string { return t.UTC().Format(wording.TimeLayout) }

// envelopeA wraps token and card operation answers.
type envelopeA struct {
	Status    string `json:"status"`
	Data      any    `json:"data"`
	Timestamp string `json:"timestamp"`
	Path      string `json:"path"`
}

// envelopeB wraps webhook simulation and contact update answers.
type envelopeB struct {
	Success   bool   `json:"success"`
	Message   string `json:"message"`
	Data      any    `json:"data"`
	Timestamp string `json:"timestamp"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON answers v as JSON without HTML escaping, so messages such as
// "Bearer <ACCESS_TOKEN>" read the same on the wire as in the documentation.
func writeJSON(w http.ResponseWriter, code int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	b := []byte(nil)
	if err := enc.Encode(v); err != nil {
		// Only our own types are encoded; this cannot happen for client input.
		code = http.StatusInternalServerError
		b = []byte(`{"status":"error","statusCode":500,"message":"Internal server error","error":"Internal Server Error"}`)
	} else {
		b = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (s *Server) writeA(rc *reqCtx, code int, data any) {
	e := envelopeA{Status: "success", Data: data, Timestamp: ts(rc.now), Path: rc.path}
	if s.faults.On(fault.EnvAStatusOK) {
		e.Status = "ok"
	}
	if s.faults.On(fault.EnvPathNoRoot) {
		e.Path = strings.TrimPrefix(rc.path, s.base)
	}
	writeJSON(rc.w, code, e)
}

func (s *Server) writeB(rc *reqCtx, message string, data any) {
	if s.faults.On(fault.EnvBSuccessString) {
		writeJSON(rc.w, http.StatusOK, map[string]any{"success": "true", "message": message, "data": data, "timestamp": ts(rc.now)})
		return
	}
	writeJSON(rc.w, http.StatusOK, envelopeB{Success: true, Message: message, Data: data, Timestamp: ts(rc.now)})
}
