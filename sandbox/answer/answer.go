// Package answer writes the sandbox's answers: the success envelopes, the
// error envelope, the reduced 404 of gift look-ups and validation failures,
// each as the faults and settings reshape it, and reads the request's JSON
// body (bounded, typed, under the body settings). A Req is one request being
// answered, carried through routing, auth and the handler.
package answer

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// Writer answers the requests of one sandbox.
type Writer struct {
	faults   fault.Set
	variants variant.Set
	base     string // the merchant API base path
}

// New is the writer of a sandbox serving base with faults fs and settings vs.
func New(fs fault.Set, vs variant.Set, base string) *Writer {
	return &Writer{faults: fs, variants: vs, base: base}
}

// Req is a request being answered: the writer, the request, the path its
// envelopes echo, the time of the answer, and what it acts on once routed
// and authenticated: the world, the merchant environment, the path
// parameter.
type Req struct {
	W     http.ResponseWriter
	R     *http.Request
	Path  string
	Now   time.Time
	World *state.World
	St    *state.EnvState // the authenticated merchant and environment
	ID    string          // the path parameter
	out   *Writer
}

// Req starts answering r on w at now.
func (o *Writer) Req(w http.ResponseWriter, r *http.Request, now time.Time) Req {
	return Req{W: w, R: r, Path: r.URL.Path, Now: now, out: o}
}

// JSON answers v as JSON, in no envelope.
func (q *Req) JSON(code int, v any) { writeJSON(q.W, code, v) }

// NoRoute answers the 404 of a path or method no route serves.
func (q *Req) NoRoute() { q.Error(http.StatusNotFound, "Cannot "+q.R.Method+" "+q.Path) }

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

// EnvelopeA answers data in the envelope of token and card operations.
func (q *Req) EnvelopeA(code int, data any) {
	e := envelopeA{Status: "success", Data: data, Timestamp: wording.Timestamp(q.Now), Path: q.Path}
	if q.out.faults.On(fault.EnvAStatusOK) {
		e.Status = "ok"
	}
	if q.out.faults.On(fault.EnvPathNoRoot) {
		e.Path = strings.TrimPrefix(q.Path, q.out.base)
	}
	writeJSON(q.W, code, e)
}

// EnvelopeB answers data in the envelope of webhook simulations and contact updates.
func (q *Req) EnvelopeB(message string, data any) {
	if q.out.faults.On(fault.EnvBSuccessString) {
		writeJSON(q.W, http.StatusOK, map[string]any{"success": "true", "message": message, "data": data, "timestamp": wording.Timestamp(q.Now)})
		return
	}
	writeJSON(q.W, http.StatusOK, envelopeB{Success: true, Message: message, Data: data, Timestamp: wording.Timestamp(q.Now)})
}
