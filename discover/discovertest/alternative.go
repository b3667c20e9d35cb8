// Package discovertest offers a target with other "not shown" choices than
// the sandbox's, built on the sandbox, for the tests of profile discovery.
package discovertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"
)

// MaxLimit is the highest GET /cards limit the alternative accepts.
const MaxLimit = 80

// badRequest answers a 400 validation error in the error envelope.
func badRequest(w http.ResponseWriter, r *http.Request, msgs ...string) {
	b, _ := json.Marshal(map[string]any{"status": "error", "statusCode": 400, "message": msgs, "error": "Bad Request",
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), "path": r.URL.Path})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(b)
}

// Alternative wraps the sandbox as a server with other "not shown" choices:
// X-Merchant-Id ignored, a listing maximum of 80, a flat gift quote and the
// date of birth registered as dob.
func Alternative(sbx http.Handler, base string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("X-Merchant-Id")
		if r.URL.Path == base+"/cards/customers" && r.Method == http.MethodPost && !renameDOB(w, r) {
			return
		}
		if r.URL.Path == base+"/cards" && r.Method == http.MethodGet {
			if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n > MaxLimit {
				badRequest(w, r, "limit must not be greater than "+strconv.Itoa(MaxLimit))
				return
			}
		}
		if r.URL.Path != base+"/gift-cards/quote" {
			sbx.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		sbx.ServeHTTP(rec, r)
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		body := rec.Body.Bytes()
		if json.Unmarshal(body, &env) == nil && len(env.Data) > 0 {
			body = env.Data
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(bytes.TrimSpace(body))
	})
}

// renameDOB makes the registration take dob instead of dateOfBirth: it
// refuses a body without dob the way a validating server does, and hands
// the sandbox dob renamed. It reports whether the request may go on.
func renameDOB(w http.ResponseWriter, r *http.Request) bool {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	dob, ok := m["dob"]
	if !ok {
		badRequest(w, r, "property dateOfBirth should not exist", "dob should not be empty")
		return false
	}
	delete(m, "dob")
	m["dateOfBirth"] = dob
	b, _ = json.Marshal(m)
	r.Body = io.NopCloser(bytes.NewReader(b))
	r.ContentLength = int64(len(b))
	return true
}

// GiftQuoteMembers wraps the sandbox with its gift quote's members renamed
// (a new name of "" drops the member), in place inside the envelope: a
// server whose quote names its total, fee or subtotal otherwise.
func GiftQuoteMembers(sbx http.Handler, base string, rename map[string]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != base+"/gift-cards/quote" {
			sbx.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		sbx.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var env map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&env) == nil {
			if data, ok := env["data"].(map[string]any); ok {
				for from, to := range rename {
					if v, ok := data[from]; ok {
						delete(data, from)
						if to != "" {
							data[to] = v
						}
					}
				}
				body, _ = json.Marshal(env)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(body)
	})
}
