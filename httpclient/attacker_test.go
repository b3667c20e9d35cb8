package httpclient

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func attackOnce(t *testing.T, o AttackOptions, tg vegeta.Target, n int) []*vegeta.Result {
	t.Helper()
	atk := NewAttacker(o)
	var out []*vegeta.Result
	for r := range atk.Attack(vegeta.NewStaticTargeter(tg), vegeta.ConstantPacer{Freq: n * 4, Per: time.Second}, 250*time.Millisecond, "t") {
		out = append(out, r)
	}
	if len(out) == 0 {
		t.Fatal("no results")
	}
	return out
}

func TestAttackerCapsBodies(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 8<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/small" {
			_, _ = w.Write(big[:DefaultAttackMaxBody])
			return
		}
		_, _ = w.Write(big)
	}))
	defer srv.Close()
	for path, wantErr := range map[string]bool{"/small": false, "/big": true} {
		for _, r := range attackOnce(t, AttackOptions{}, vegeta.Target{Method: "GET", URL: srv.URL + path}, 4) {
			if len(r.Body) > DefaultAttackMaxBody || (r.Error == "body larger than 65536 bytes") != wantErr {
				t.Fatalf("%s: %d bytes kept, error %q", path, len(r.Body), r.Error)
			}
		}
	}
}

func TestAttackerSendsNothingElsewhere(t *testing.T) {
	leak := &sink{}
	other := httptest.NewServer(leak.handler())
	defer other.Close()
	src := redirector(t, http.StatusTemporaryRedirect, otherHost(other.URL))
	tg := vegeta.Target{Method: "POST", URL: src.URL + "/v1/merchant/auth/token", Body: []byte(`{"secretKey":"sk_test_SECRET"}`),
		Header: http.Header{"Authorization": {"Bearer TOKEN"}}}
	for _, follow := range []bool{false, true} {
		for _, r := range attackOnce(t, AttackOptions{FollowRedirects: follow}, tg, 4) {
			if !follow && r.Code != http.StatusTemporaryRedirect {
				t.Fatalf("not following: want the 307 recorded, got %d %q", r.Code, r.Error)
			}
			if follow && !strings.Contains(r.Error, "the target answered 307 to") {
				t.Fatalf("following: the cross-origin redirect should be refused, got %d %q", r.Code, r.Error)
			}
		}
	}
	if hits := leak.all(); len(hits) > 0 {
		t.Fatalf("the other origin received %v", hits)
	}
}

func TestAttackerH2C(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(r.Proto))
	}))
	srv.Config.Protocols = new(http.Protocols)
	srv.Config.Protocols.SetHTTP1(true)
	srv.Config.Protocols.SetUnencryptedHTTP2(true)
	srv.Start()
	defer srv.Close()
	for h2c, want := range map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"} {
		for _, r := range attackOnce(t, AttackOptions{H2C: h2c}, vegeta.Target{Method: "GET", URL: srv.URL}, 2) {
			if string(r.Body) != want {
				t.Fatalf("h2c=%v: got %q (%s)", h2c, r.Body, r.Error)
			}
		}
	}
}
