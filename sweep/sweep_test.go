package sweep

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/money"
)

// fakeCard is a target holding one card; frozenRefusesWithdraw makes it
// refuse withdrawals from a FROZEN card.
type fakeCard struct {
	mu                    sync.Mutex
	balance               int64
	status                string
	frozenRefusesWithdraw bool
	cardFee               int64 // a withdrawal also takes this from the card
	withdrawals           []int64
}

func (f *fakeCard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	var body map[string]any
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	_ = dec.Decode(&body)
	switch {
	case r.Method == http.MethodGet:
	case strings.HasSuffix(r.URL.Path, "/withdraw"):
		a, _ := money.Parse(fmt.Sprint(body["amount"]))
		if a.Minor()+f.cardFee > f.balance || (f.status == "FROZEN" && f.frozenRefusesWithdraw) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f.balance -= a.Minor() + f.cardFee
		f.withdrawals = append(f.withdrawals, a.Minor())
	case strings.HasSuffix(r.URL.Path, "/status"):
		f.status, _ = body["status"].(string)
	}
	fmt.Fprintf(w, `{"status":"success","data":{"id":"crd_1","balanceAmount":%s,"status":%q}}`, money.Amount(f.balance), f.status)
}

func TestCard(t *testing.T) {
	cases := []struct {
		name            string
		balance, fee    int64
		status          string
		refuseFrozen    bool
		keep            bool
		wantWithdrawn   int64
		wantLeft        int64
		wantFinalStatus string
	}{
		{"active card swept and frozen", 150, 5, "ACTIVE", false, false, 150, 0, "FROZEN"},
		{"below the 0.10 minimum: frozen, not swept", 9, 5, "ACTIVE", false, false, 0, 9, "FROZEN"},
		{"not above the fee: frozen, not swept", 20, 20, "ACTIVE", false, false, 0, 20, "FROZEN"},
		{"frozen card that refuses withdrawals is unfrozen for the sweep", 300, 5, "FROZEN", true, false, 300, 0, "FROZEN"},
		{"keep only reads", 150, 5, "ACTIVE", false, true, 0, 150, "ACTIVE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeCard{balance: c.balance, status: c.status, frozenRefusesWithdraw: c.refuseFrozen}
			srv := httptest.NewServer(f)
			defer srv.Close()
			api := client.New(client.Options{BaseURL: srv.URL, HTTP: srv.Client()})
			out, err := Card(context.Background(), api, "crd_1", c.keep, Rules{Fee: c.fee})
			if err != nil {
				t.Fatal(err)
			}
			var withdrawn int64
			for _, w := range f.withdrawals {
				withdrawn += w
			}
			if withdrawn != c.wantWithdrawn || out.Swept != c.wantWithdrawn || out.Left != c.wantLeft || f.status != c.wantFinalStatus {
				t.Fatalf("withdrawn %d (outcome %d), left %d, status %s; want %d, %d, %s", withdrawn, out.Swept, out.Left, f.status, c.wantWithdrawn, c.wantLeft, c.wantFinalStatus)
			}
		})
	}
}

// A target charging the withdrawal fee on the card refuses the whole
// balance; the sweep then withdraws the balance less the fee and empties it.
func TestCardSideFee(t *testing.T) {
	f := &fakeCard{balance: 500, status: "ACTIVE", cardFee: 25}
	srv := httptest.NewServer(f)
	defer srv.Close()
	api := client.New(client.Options{BaseURL: srv.URL, HTTP: srv.Client()})
	out, err := Card(context.Background(), api, "crd_1", false, Rules{CardFee: 25})
	if err != nil {
		t.Fatal(err)
	}
	if out.Swept != 475 || out.Left != 0 || len(f.withdrawals) != 1 || f.status != "FROZEN" {
		t.Fatalf("swept %d, left %d, withdrawals %v, status %s", out.Swept, out.Left, f.withdrawals, f.status)
	}
	f = &fakeCard{balance: 500, status: "ACTIVE", cardFee: 25}
	srv2 := httptest.NewServer(f)
	defer srv2.Close()
	api = client.New(client.Options{BaseURL: srv2.URL, HTTP: srv2.Client()})
	if _, err := Card(context.Background(), api, "crd_1", false, Rules{}); err == nil {
		t.Error("without CardFee the refused sweep must say so")
	}
}
