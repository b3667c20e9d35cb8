package sandbox

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/merchant-harness/mph/money"
)

// Many goroutines issue, withdraw, freeze and transact at once, on their own
// cards and on one shared card. Afterwards money is conserved (vault + cards
// + fees + spent = seed), nothing went negative, and every card holds exactly
// the balance its owner computed from the answers it got (no lost updates).
func TestConcurrentMoneyConservation(t *testing.T) {
	h := newSbx(t, Options{})
	tok := h.token(alpha, alphaTest)
	cust := h.customer(tok)
	// A small vault so that some issuances are refused for lack of funds.
	h.ctl("PUT", "/merchants/mer_demo_alpha/balances", `{"environment":"TEST","vaultBalance":2000}`).want(200)
	shared := h.card(tok, cust, "500").s("data.id")
	const seed = 2000_00

	const workers, ops = 8, 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	expected := map[string]int64{} // card id -> balance its owner expects
	issued, refused := 0, 0
	errs := make(chan string, workers*ops)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []string
			bal := map[string]int64{}
			call := func(method, path, body string) *resp {
				req := &sbx{t: t, s: h.s, ip: "127.0.0.1:1"}
				return req.api(method, path, tok, body)
			}
			for i := range ops {
				switch op := rng.IntN(6); {
				case op == 0 || len(mine) == 0:
					amt := int64(1+rng.IntN(100)) * 100
					r := call("POST", "/cards", fmt.Sprintf(`{"customerId":%q,"nameOnCard":"W%d","amount":%s}`, cust, w, money.Amount(amt)))
					switch r.code {
					case 201:
						id := r.s("data.id")
						mine = append(mine, id)
						bal[id] = amt
						mu.Lock()
						issued++
						mu.Unlock()
					case 400:
						mu.Lock()
						refused++
						mu.Unlock()
					default:
						errs <- fmt.Sprintf("issue: %d %s", r.code, r.body)
					}
				case op == 1:
					id := mine[rng.IntN(len(mine))]
					amt := int64(10 + rng.IntN(500))
					r := call("POST", "/cards/"+id+"/withdraw", fmt.Sprintf(`{"amount":%s}`, money.Amount(amt)))
					if r.code == 200 {
						bal[id] -= amt
					} else if r.code != 400 {
						errs <- fmt.Sprintf("withdraw: %d %s", r.code, r.body)
					}
				case op == 2:
					id := mine[rng.IntN(len(mine))]
					st := []string{"ACTIVE", "FROZEN"}[i%2]
					if r := call("PATCH", "/cards/"+id+"/status", `{"status":"`+st+`"}`); r.code != 200 {
						errs <- fmt.Sprintf("status: %d %s", r.code, r.body)
					}
				case op == 3:
					id := mine[rng.IntN(len(mine))]
					amt := int64(1 + rng.IntN(300))
					r := (&sbx{t: t, s: h.s, ip: "127.0.0.1:1"}).ctl("POST", "/cards/"+id+"/transactions", fmt.Sprintf(`{"amount":%s}`, money.Amount(amt)))
					if r.code != 200 {
						errs <- fmt.Sprintf("txn: %d %s", r.code, r.body)
					} else if r.get("approved") == true {
						bal[id] -= amt
					}
				case op == 4:
					// Contention on the shared card; its balance is checked by conservation.
					if rng.IntN(2) == 0 {
						call("POST", "/cards/"+shared+"/withdraw", `{"amount":0.37}`)
					} else {
						(&sbx{t: t, s: h.s, ip: "127.0.0.1:1"}).ctl("POST", "/cards/"+shared+"/transactions", `{"amount":0.41}`)
					}
				default:
					if r := call("GET", "/cards?limit=100", ""); r.code != 200 {
						errs <- fmt.Sprintf("list: %d", r.code)
					}
				}
			}
			mu.Lock()
			for id, b := range bal {
				expected[id] = b
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	b := h.ctl("GET", "/merchants/mer_demo_alpha", nil).want(200)
	parse := func(k string) int64 {
		a, err := money.Parse(b.num(k))
		if err != nil {
			t.Fatal(err)
		}
		return int64(a)
	}
	vault, cards, fees, spent := parse("vaultBalance"), parse("cardBalances"), parse("feesCollected"), parse("spentAmount")
	if vault+cards+fees+spent != seed {
		t.Fatalf("money not conserved: vault %d + cards %d + fees %d + spent %d = %d, want %d", vault, cards, fees, spent, vault+cards+fees+spent, seed)
	}
	if vault < 0 {
		t.Fatalf("vault went negative: %d", vault)
	}
	if issued == 0 || refused == 0 {
		t.Logf("issued %d, refused %d (both paths are expected to occur)", issued, refused)
	}
	for id, want := range expected {
		r := h.api("GET", "/cards/"+id, tok, nil).want(200)
		if got := r.num("data.balanceAmount"); got != money.Amount(want).String() {
			t.Errorf("card %s: balance %s, owner expects %s (lost update)", id, got, money.Amount(want))
		}
	}
	if n := int(parseInt(t, b.num("cards"))); n != issued+1 {
		t.Fatalf("cards %d, issued %d + shared", n, issued)
	}
}

func parseInt(t *testing.T, s string) int64 {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
