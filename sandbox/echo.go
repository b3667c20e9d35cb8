package sandbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// EchoRequests (Options.EchoRequests, `mph sandbox --echo-requests`) is a
// TEST-ONLY behaviour that makes the sandbox a leaky target: every answer
// echoes the request it answers. JSON object answers gain a "debug" member
// with the method, URL, headers (as JSON and as raw header lines) and body
// (as text, in base64 and as a form) of the request, and every answer
// carries X-Echo-Authorization and X-Echo-Admin-Key headers copying the
// request's credentials. The harness's redaction is tested against it: no
// secret the harness sent may come back into any of its outputs. Never
// enable it on a sandbox anyone else uses.

type echoKey struct{}

// serveEcho answers r through the sandbox and adds the echo to the answer.
func (s *Server) serveEcho(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &echoRecorder{header: http.Header{}}
	s.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), echoKey{}, true)))

	h := w.Header()
	for k, v := range rec.header {
		h[k] = v
	}
	h.Set("X-Echo-Authorization", r.Header.Get("Authorization"))
	h.Set("X-Echo-Admin-Key", r.Header.Get("X-Sandbox-Admin-Key"))
	out := rec.body.Bytes()
	if strings.HasPrefix(rec.header.Get("Content-Type"), "application/json") {
		out = withDebug(out, r, body)
	}
	h.Set("Content-Length", strconv.Itoa(len(out)))
	code := rec.code
	if code == 0 {
		code = http.StatusOK
	}
	w.WriteHeader(code)
	_, _ = w.Write(out)
}

// echoing reports whether r is already inside serveEcho.
func echoing(r *http.Request) bool { return r.Context().Value(echoKey{}) != nil }

// withDebug adds the request to a JSON object answer as its "debug" member.
func withDebug(answer []byte, r *http.Request, body []byte) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(answer, &obj) != nil || obj == nil {
		return answer
	}
	var raw strings.Builder
	_ = r.Header.Write(&raw)
	dbg, err := json.Marshal(map[string]any{
		"method": r.Method, "url": r.URL.String(), "host": r.Host,
		"headers": r.Header, "rawHeaders": raw.String(),
		"body": string(body), "bodyBase64": base64.StdEncoding.EncodeToString(body),
		"bodyForm": formOf(body),
	})
	if err != nil {
		return answer
	}
	obj["debug"] = dbg
	b, err := json.Marshal(obj)
	if err != nil {
		return answer
	}
	return b
}

// formOf renders the top-level string members of a JSON object body as a
// form (merchantId=...&secretKey=...), as a careless access log would.
func formOf(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	v := url.Values{}
	for k, x := range m {
		if s, ok := x.(string); ok {
			v.Set(k, s)
		}
	}
	return v.Encode()
}

// echoRecorder buffers one answer so that the echo can be added to it.
type echoRecorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (e *echoRecorder) Header() http.Header { return e.header }

func (e *echoRecorder) WriteHeader(code int) {
	if e.code == 0 {
		e.code = code
	}
}

func (e *echoRecorder) Write(b []byte) (int, error) {
	if e.code == 0 {
		e.code = http.StatusOK
	}
	return e.body.Write(b)
}
