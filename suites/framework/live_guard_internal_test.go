package framework

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/merchant-harness/mph/target"
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
	primary := target.Credentials{MerchantID: "m", SecretKey: "sk_test_p"}
	live := target.Credentials{MerchantID: "m", SecretKey: "sk_live_l"}
	cases := []struct {
		name              string
		allow, embedded   bool
		primaryEnv        string
		creds             target.Credentials
		wantWritesRefused bool
	}{
		{"MPH_LIVE_* without --allow-live", false, false, "TEST", live, true},
		{"MPH_LIVE_* with --allow-live", true, false, "TEST", live, false},
		{"MPH_LIVE_* on the embedded sandbox", false, true, "TEST", live, false},
		{"TEST primary", false, false, "TEST", primary, false},
		{"LIVE primary without --allow-live", false, false, "LIVE", primary, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := &harness{cfg: &target.Config{Primary: primary, LiveTier2: &live, AllowLive: c.allow, Embedded: c.embedded},
				facts: target.Facts{Environment: c.primaryEnv, Controls: true}}
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
