// Package echo is the sandbox's TEST-ONLY leaky behaviour (Options.EchoRequests,
// `mph sandbox --echo-requests`): every answer echoes the request it answers.
// JSON object answers gain a "debug" member with the method, URL, headers (as
// JSON and as raw header lines) and body (as text, in base64 and as a form)
// of the request, and every answer carries X-Echo-Authorization and
// X-Echo-Admin-Key headers copying the request's credentials. The harness's
// redaction is tested against it: no secret the harness sent may come back
// into any of its outputs. Never enable it on a sandbox anyone else uses.
package echo

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

type echoKey struct{}

// Serve answers r through h, reading at most maxBody+1 bytes of its body,
// and adds the echo to the answer. h sees a request for which Inside is true.
func Serve(h http.Handler, w http.ResponseWriter, r *http.Request, maxBody int64) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := &recorder{header: http.Header{}}
	h.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), echoKey{}, true)))

	hdr := w.Header()
	for k, v := range rec.header {
		hdr[k] = v
	}
	hdr.Set("X-Echo-Authorization", r.Header.Get("Authorization"))
	hdr.Set("X-Echo-Admin-Key", r.Header.Get("X-Sandbox-Admin-Key"))
	out := rec.body.Bytes()
	if strings.HasPrefix(rec.header.Get("Content-Type"), "application/json") {
		out = withDebug(out, r, body)
	}
	hdr.Set("Content-Length", strconv.Itoa(len(out)))
	code := rec.code
	if code == 0 {
		code = http.StatusOK
	}
	w.WriteHeader(code)
	_, _ = w.Write(out)
}

// Inside reports whether r is already inside Serve.
func Inside(r *http.Request) bool { return r.Context().Value(echoKey{}) != nil }

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

// recorder buffers one answer so that the echo can be added to it.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (e *recorder) Header() http.Header { return e.header }

func (e *recorder) WriteHeader(code int) {
	if e.code == 0 {
		e.code = code
	}
}

func (e *recorder) Write(b []byte) (int, error) {
	if e.code == 0 {
		e.code = http.StatusOK
	}
	return e.body.Write(b)
}
