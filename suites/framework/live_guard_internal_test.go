package framework

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/merchant-harness/mph/config"
)

// A TEST primary plus MPH_LIVE_* credentials: whatever the controls say, the
// LIVE client sends reads and the token exchange only, unless --allow-live
// (or the embedded sandbox, which holds no money).
func TestLiveClientRefusesWrites(t *testing.T) {
	var writes, reads atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || strings.HasSuffix(r.URL.Path, "/auth/token") {
			reads.Add(1)
		} else {
			writes.Add(1)
		}
	}))
	defer srv.Close()
	primary := config.Credentials{MerchantID: "m", SecretKey: "sk_test_p"}
	live := config.Credentials{MerchantID: "m", SecretKey: "sk_live_l"}
	cases := []struct {
		name              string
		allow, embedded   bool
		primaryLive       bool
		creds             *config.Credentials
		wantWritesRefused bool
	}{
		{"MPH_LIVE_* without --allow-live", false, false, false, &live, true},
		{"MPH_LIVE_* with --allow-live", true, false, false, &live, false},
		{"MPH_LIVE_* on the embedded sandbox", false, true, false, &live, false},
		{"TEST primary", false, false, false, &primary, false},
		{"LIVE primary without --allow-live", false, false, true, &primary, true},
		{"the anonymous client, no credential", false, false, true, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := &harness{cfg: &config.Config{Primary: primary, LiveTier2: &live, Options: config.Options{AllowLive: c.allow}, Embedded: c.embedded},
				facts: config.Facts{Live: c.primaryLive, Controls: true}}
			hc := x.guardLive(&http.Client{}, c.creds)
			w0, r0 := writes.Load(), reads.Load()
			for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
				req, _ := http.NewRequest(m, srv.URL+"/v1/merchant/cards", strings.NewReader("{}"))
				resp, err := hc.Do(req)
				if c.wantWritesRefused {
					if err == nil || !strings.Contains(err.Error(), "--allow-live") {
						t.Fatalf("%s went through: %v", m, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", m, err)
				}
				resp.Body.Close()
			}
			for _, u := range []string{"/v1/merchant/cards/config"} {
				resp, err := hc.Get(srv.URL + u)
				if err != nil {
					t.Fatalf("read refused: %v", err)
				}
				resp.Body.Close()
			}
			resp, err := hc.Post(srv.URL+"/v1/merchant/auth/token", "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Fatalf("token exchange refused: %v", err)
			}
			resp.Body.Close()
			gotWrites := writes.Load() - w0
			if c.wantWritesRefused && gotWrites != 0 {
				t.Fatalf("%d writes reached the target", gotWrites)
			}
			if !c.wantWritesRefused && gotWrites != 4 {
				t.Fatalf("%d of 4 writes reached the target", gotWrites)
			}
			if reads.Load()-r0 != 2 {
				t.Fatalf("%d of 2 reads reached the target", reads.Load()-r0)
			}
		})
	}
}

// A token a spec obtains itself, through the anonymous client, for LIVE
// credentials (the KYB spec's) cannot write either: the process's guard saw
// it issued.
func TestAnonymousClientRefusesWritesWithALiveToken(t *testing.T) {
	var writes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/auth/token") {
			// A lying answer: TEST for an sk_live_ key, a token that is no JWT.
			_, _ = w.Write([]byte(`{"status":"success","data":{"accessToken":"opaque-token-1234","environment":"TEST"}}`))
			return
		}
		if r.Method != http.MethodGet {
			writes.Add(1)
		}
	}))
	defer srv.Close()
	lowKYB := config.Credentials{MerchantID: "m2", SecretKey: "configured-low-kyb"}
	for _, key := range []string{lowKYB.SecretKey, "sk_live_other"} {
		x := &harness{cfg: &config.Config{Primary: config.Credentials{MerchantID: "m", SecretKey: "sk_test_p"}, LiveLowKYB: &lowKYB}}
		hc := x.guardLive(&http.Client{}, nil)
		resp, err := hc.Post(srv.URL+"/v1/merchant/auth/token", "application/json", strings.NewReader(`{"merchantId":"m2","secretKey":"`+key+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/merchant/cards/customers", strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer opaque-token-1234")
		if _, err := x.guardLive(&http.Client{}, nil).Do(req); !errors.Is(err, errLiveWrite) {
			t.Fatalf("key %s: want the write refused, got %v", key, err)
		}
	}
	if writes.Load() != 0 {
		t.Fatalf("%d writes with a LIVE token reached the target", writes.Load())
	}
}
