package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/merchant-harness/mph/sandbox"
)

// rulesFront is a server the document allows in front of the sandbox: it
// adds business rules the document leaves open ("other failure conditions:
// not shown") and answers the registration's customerId as a number (its
// type is not shown). The harness's own test data must pass them all.
type rulesFront struct {
	mu       sync.Mutex
	seen     map[string]bool      // phone, document number, name+birth date
	ids      map[string]string    // numeric customerId → the sandbox's
	since    map[string]time.Time // registration time per numeric id
	cards    map[string]int       // cards per numeric id
	refusals map[string]int       // why a request was refused (for the log)
}

var embossable = regexp.MustCompile(`^[A-Za-z ]{1,21}$`)

func (f *rulesFront) refuse(w http.ResponseWriter, r *http.Request, why string) {
	f.refusals[why]++
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]any{"status": "error", "statusCode": 400, "error": "Bad Request", "message": why,
		"timestamp": time.Now().UTC().Format(time.RFC3339), "path": r.URL.Path})
}

// serve applies the rules, then forwards to the sandbox (rp).
func (f *rulesFront) serve(rp *httputil.ReverseProxy, numbers *int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !(strings.HasSuffix(r.URL.Path, "/cards/customers") || strings.HasSuffix(r.URL.Path, "/merchant/cards")) {
			rp.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var b map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		_ = dec.Decode(&b)
		f.mu.Lock()
		defer f.mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/cards/customers") {
			f.register(w, r, rp, b, body, numbers)
			return
		}
		num := fmt.Sprint(b["customerId"])
		real, known := f.ids[num]
		name, _ := b["nameOnCard"].(string)
		switch {
		case !known:
			f.refuse(w, r, "customerId must be a known numeric customer id")
		case time.Since(f.since[num]) < time.Second:
			f.refuse(w, r, "customer verification pending")
		case f.cards[num] >= 5:
			f.refuse(w, r, "a customer holds at most 5 cards")
		case name != "" && !embossable.MatchString(name):
			f.refuse(w, r, "nameOnCard must be at most 21 letters or spaces")
		default:
			b["customerId"] = real
			body, _ = json.Marshal(b)
			rec := httptest.NewRecorder()
			forward(rp, rec, r, body)
			if rec.Code/100 == 2 {
				f.cards[num]++
			}
			copyAnswer(w, rec)
		}
	}
}

// register refuses a repeated identity and renumbers the customer id.
func (f *rulesFront) register(w http.ResponseWriter, r *http.Request, rp *httputil.ReverseProxy, b map[string]any, body []byte, numbers *int) {
	keys := []string{"phone " + fmt.Sprint(b["phoneNumber"]), "document " + fmt.Sprint(b["idNumber"]),
		"person " + fmt.Sprint(b["firstName"], b["lastName"], b["dateOfBirth"])}
	for _, k := range keys {
		if f.seen[k] {
			f.refuse(w, r, "duplicate customer: "+k)
			return
		}
	}
	rec := httptest.NewRecorder()
	forward(rp, rec, r, body)
	var ans map[string]any
	if rec.Code/100 == 2 && json.Unmarshal(rec.Body.Bytes(), &ans) == nil {
		if d, ok := ans["data"].(map[string]any); ok {
			if id, ok := d["customerId"].(string); ok {
				for _, k := range keys {
					f.seen[k] = true
				}
				*numbers++
				num := fmt.Sprint(10000 + *numbers)
				f.ids[num], f.since[num] = id, time.Now()
				d["customerId"] = json.Number(num)
				b, _ := json.Marshal(ans)
				rec.Body = bytes.NewBuffer(b)
				rec.Header().Del("Content-Length")
			}
		}
	}
	copyAnswer(w, rec)
}

func forward(rp *httputil.ReverseProxy, w http.ResponseWriter, r *http.Request, body []byte) {
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	rp.ServeHTTP(w, r2)
}

func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// TestTestDataPassesOpenBusinessRules: against a server that refuses a
// repeated phone, document number or person, more than 5 cards per
// customer, a card name an embosser cannot print and a card for a customer
// registered less than 1 s ago, and that numbers its customer ids, the
// specs that issue cards through the fixtures pass (exit 0): the harness's
// own data trips none of these rules the document leaves open.
func TestTestDataPassesOpenBusinessRules(t *testing.T) {
	f := &rulesFront{seen: map[string]bool{}, ids: map[string]string{}, since: map[string]time.Time{}, cards: map[string]int{}, refusals: map[string]int{}}
	numbers := 0
	env := sandboxEnv(t, nil, func(sbx *sandbox.Running) string {
		u, _ := url.Parse(sbx.BaseURL)
		rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
		srv := httptest.NewServer(f.serve(rp, &numbers))
		t.Cleanup(srv.Close)
		return srv.URL + u.Path
	})
	r := gateRun(t, env, 0, 0, "conform", "--out", t.TempDir(), "--label-filter", "withdraw || card-status || spend-limits || secure-reveal")
	expectCode(t, "open business rules", r, 0)
	f.mu.Lock()
	defer f.mu.Unlock()
	cards := 0
	for _, n := range f.cards {
		cards += n
	}
	t.Logf("%d cards over %d customers; refusals the fixtures met and got past: %v", cards, numbers, f.refusals)
	if cards <= 5 || numbers < 2 || f.refusals["customer verification pending"] == 0 {
		t.Errorf("the rules were not exercised: %d cards, %d customers, refusals %v", cards, numbers, f.refusals)
	}
}
