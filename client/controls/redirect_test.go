package controls

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/httpclient"
)

// TestAdminKeyFollowsNoRedirect: controls answering with a redirect to
// another host name and port never get the admin key (or anything) sent there.
func TestAdminKeyFollowsNoRedirect(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { leaked.Add(1) }))
	defer other.Close()
	loc := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	ctl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", loc+r.URL.Path)
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	defer ctl.Close()
	for _, follow := range []bool{false, true} {
		base := client.New(client.Options{BaseURL: ctl.URL + "/v1/merchant", HTTP: httpclient.New(httpclient.Options{FollowRedirects: follow})})
		k := New(base, ctl.URL+"/_sandbox", "admin-key-secret")
		_, err := k.AdvanceClock(context.Background(), 60)
		if err == nil || !strings.Contains(err.Error(), "the target answered 307 to "+loc) {
			t.Fatalf("follow=%v: want the refused redirect named, got %v", follow, err)
		}
		if _, err := k.Capabilities(context.Background()); err == nil {
			t.Fatalf("follow=%v: capabilities through a redirect should fail", follow)
		}
	}
	if n := leaked.Load(); n > 0 {
		t.Fatalf("the other origin received %d control requests", n)
	}
}
