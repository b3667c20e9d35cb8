package probe

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/loadtest"
)

// failingTarget issues tokens and answers every other request with status
// (a 500, a redirect), counting them.
func failingTarget(t *testing.T, status int) (*loadtest.Target, *atomic.Int64) {
	t.Helper()
	var sent atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/auth/token") {
			_, _ = io.WriteString(w, `{"status":"success","data":{"accessToken":"a.b.c","tokenType":"Bearer","expiresIn":900,"environment":"TEST","merchantId":"m"}}`)
			return
		}
		sent.Add(1)
		if status/100 == 3 {
			w.Header().Set("Location", "http://127.0.0.1:1/elsewhere")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"status":"error","statusCode":500,"message":"boom","error":"Internal Server Error"}`)
	}))
	t.Cleanup(srv.Close)
	return &loadtest.Target{BaseURL: srv.URL + "/v1/merchant", Creds: []loadtest.Credential{{MerchantID: "m", SecretKey: "sk_test_x"}},
		Timeout: 2 * time.Second, Setup: loadtest.DefaultSetupProfile()}, &sent
}

// The probe and the capacity search judge their own success: where the
// target answers nothing but errors or redirects they stop at the first
// step, and say so (the probe climbed to 4,379 req/s and called it "no
// rate limit found").
func TestProbeAndCapacityStopWhenNothingSucceeds(t *testing.T) {
	for _, status := range []int{http.StatusInternalServerError, http.StatusTemporaryRedirect} {
		tg, sent := failingTarget(t, status)
		scn, err := loadtest.Prepare(context.Background(), tg, loadtest.ScenarioOptions{Name: "list"})
		if err != nil {
			t.Fatal(err)
		}
		pp, err := Path(context.Background(), scn, PathOptions{StartRate: 20, Factor: 2, MaxRate: 5000, StepDur: 300 * time.Millisecond, Polite: 10})
		if err != nil {
			t.Fatal(err)
		}
		if pp.NoSuccess == "" || len(pp.Steps) != 1 || pp.LimitFound || pp.Polite != nil {
			t.Fatalf("%d: want the probe stopped at its first step, got %d steps, no-success %q", status, len(pp.Steps), pp.NoSuccess)
		}
		if n := sent.Load(); n > 20 {
			t.Fatalf("%d: the probe sent %d requests to a target answering nothing but errors", status, n)
		}
		sent.Store(0)
		cr, err := Capacity(context.Background(), scn, CapacityOptions{SLO: SLO{MaxErrors: 1, MinAchieved: 0.5, MaxP99: time.Second},
			StartRate: 20, MaxRate: 5000, StepDur: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if cr.Confirmed || cr.Capacity != 0 || len(cr.Steps) != 1 || !strings.Contains(cr.Steps[0].Why, "no valid 2xx") {
			t.Fatalf("%d: --max-errors 1 must not make failures a capacity: %+v", status, cr)
		}
		scn.Close(context.Background())
	}
}
