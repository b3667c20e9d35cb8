package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/merchant-harness/mph/discover/discovertest"
	"github.com/merchant-harness/mph/money"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
)

// runConformEnv runs mph conform with env and args; it returns the exit code,
// the output and the summary of report.summary.json.
func runConformEnv(t *testing.T, env []string, args ...string) (int, string, result.Summary) {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(mphBinary(t), append([]string{"conform", "--no-color", "--out", out}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var sum result.Summary
	if b, err := os.ReadFile(filepath.Join(out, "report.summary.json")); err == nil {
		_ = json.Unmarshal(b, &sum)
	}
	return code, buf.String(), sum
}

func runningEnv(r *sandbox.Running) []string {
	demo := sandbox.DemoMerchants()
	env := []string{
		"MPH_BASE_URL=" + r.BaseURL,
		"MPH_MERCHANT_ID=" + demo[0].ID, "MPH_SECRET_KEY=" + demo[0].TestKey,
		"MPH_MERCHANT2_ID=" + demo[1].ID, "MPH_SECRET_KEY2=" + demo[1].TestKey,
	}
	if r.ControlsURL != "" {
		env = append(env, "MPH_CONTROLS_URL="+r.ControlsURL, "MPH_ADMIN_KEY="+r.AdminKey)
	}
	return env
}

type balances struct {
	Vault, Fees, Cards, Spent money.Amount
	Count                     int
}

func readBalances(t *testing.T, r *sandbox.Running, merchant string) balances {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.ControlsURL+"/merchants/"+merchant+"?environment=TEST", nil)
	req.Header.Set("X-Sandbox-Admin-Key", r.AdminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b struct {
		Vault money.Amount `json:"vaultBalance"`
		Fees  money.Amount `json:"feesCollected"`
		Cards money.Amount `json:"cardBalances"`
		Spent money.Amount `json:"spentAmount"`
		Count int          `json:"cards"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&b); err != nil {
		t.Fatalf("balances: %v", err)
	}
	return balances{b.Vault, b.Fees, b.Cards, b.Spent, b.Count}
}

// TestTeardownSweepsTheMoneyBack runs the whole suite against a sandbox and
// checks that afterwards no card of either TEST merchant holds a balance and
// that each vault lost no more than the fees collected and what card
// transactions spent; the summary states the money spent and swept back.
func TestTeardownSweepsTheMoneyBack(t *testing.T) {
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	demo := sandbox.DemoMerchants()
	before := map[string]balances{}
	for _, m := range demo[:2] {
		before[m.ID] = readBalances(t, r, m.ID)
	}
	code, out, sum := runConformEnv(t, runningEnv(r))
	if code != 0 {
		t.Fatalf("mph conform exit %d:\n%s", code, tail(out))
	}
	mon := sum.Money
	if mon == nil || mon.Teardown != "done" || mon.CardsCreated == 0 || mon.CardsSwept == 0 || mon.CardsFrozen != mon.CardsCreated {
		t.Fatalf("summary money %+v", mon)
	}
	// A balance below the 0.10 USD minimum withdrawal cannot be swept: the
	// cards may keep at most 0.09 USD each of what no withdrawal can take.
	var left money.Amount
	for _, m := range demo[:2] {
		b, a := before[m.ID], readBalances(t, r, m.ID)
		if a.Count == 0 && m.ID == demo[0].ID {
			t.Fatalf("%s: the run created no cards", m.ID)
		}
		left += a.Cards
		lost := b.Vault - a.Vault
		allowed := (a.Fees - b.Fees) + (a.Spent - b.Spent)
		if lost > allowed {
			t.Errorf("%s: the vault lost %s USD, more than the fees collected plus the card transactions (%s USD)", m.ID, lost, allowed)
		}
	}
	if int64(left) != mon.LeftOnCards["USD"] || int64(left) > 9*int64(mon.CardsCreated-mon.CardsSwept) {
		t.Errorf("the cards hold %s USD after the teardown; the summary says %d minor units left on %d unswept cards", left, mon.LeftOnCards["USD"], mon.CardsCreated-mon.CardsSwept)
	}
	if mon.Spent["USD"] <= 0 || mon.SweptBack["USD"] <= 0 || mon.Spent["NGN"] <= 0 {
		t.Errorf("summary money: spent %v, swept back %v, left %v", mon.Spent, mon.SweptBack, mon.LeftOnCards)
	}
	if !strings.Contains(out, "Test money: spent") || !strings.Contains(out, "Teardown: done") {
		t.Errorf("no money lines on the console:\n%s", tail(out))
	}
}

// TestNoTeardownKeepsTheCardsAndMaxSpendSkips: with --no-teardown the cards
// keep their balances; --max-spend skips what would go over, with the reason.
func TestNoTeardownKeepsTheCardsAndMaxSpendSkips(t *testing.T) {
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code, out, sum := runConformEnv(t, runningEnv(r), "--no-teardown", "--max-spend", "USD=20", "--focus", "Card issuance|Withdrawal")
	if code != 0 {
		t.Fatalf("mph conform exit %d:\n%s", code, tail(out))
	}
	mon := sum.Money
	if mon == nil || mon.Teardown != "off" || mon.SkippedOverBudget == 0 || mon.Spent["USD"] > 2000 {
		t.Fatalf("summary money %+v", mon)
	}
	if a := readBalances(t, r, sandbox.DemoMerchants()[0].ID); a.Cards == 0 {
		t.Error("--no-teardown: the cards were swept")
	}
	if !strings.Contains(out, "refused by --max-spend") {
		t.Errorf("no skip names --max-spend:\n%s", tail(out))
	}
}

// TestPreconfiguredWebhooksWithoutControls: a sandbox with hidden controls
// delivering to a pre-configured URL stands in for a real TEST environment;
// with the signature scheme the provider declares, the delivery and
// signature specs pass with the right signing key and fail with a wrong one.
func TestPreconfiguredWebhooksWithoutControls(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hookURL := "http://" + ln.Addr().String() + "/hooks/alpha"
	ln.Close()
	demo := sandbox.DemoMerchants()
	const secret = "whsec_dashboard_1234"
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{
		HideControls: true,
		Webhooks:     []sandbox.WebhookPreset{{MerchantID: demo[0].ID, URL: hookURL, Secret: secret}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.ControlsURL != "" {
		t.Fatalf("hidden controls still announced at %s", r.ControlsURL)
	}
	env := append(runningEnv(r), "MPH_WEBHOOK_RECEIVER_URL="+hookURL)
	// The provider declares how its deliveries are signed (the document
	// does not show it; without the key nothing is verified).
	profile := filepath.Join(t.TempDir(), "signed.yaml")
	if err := os.WriteFile(profile, []byte("webhooks:\n  signature:\n    header: X-MPH-Signature\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--webhooks-preconfigured", "--profile", profile, "--focus", "Webhook simulation", "-v"}

	code, out, sum := runConformEnv(t, append(env, "MPH_WEBHOOK_SECRET="+secret), args...)
	if code != 0 {
		t.Fatalf("right key: exit %d:\n%s", code, tail(out))
	}
	for _, want := range []string{"delivers each simulated event", "signs each delivery"} {
		if !passed(sum, want) {
			t.Errorf("right key: the spec %q did not pass", want)
		}
	}

	code, out, sum = runConformEnv(t, append(env, "MPH_WEBHOOK_SECRET=whsec_wrong"), args...)
	if code != 1 {
		t.Fatalf("wrong key: want exit 1, got %d:\n%s", code, tail(out))
	}
	for _, want := range []string{"delivers each simulated event", "signs each delivery"} {
		if !failed(sum, want) {
			t.Errorf("wrong key: the spec %q did not fail", want)
		}
	}
	if !strings.Contains(out, "signature does not match") {
		t.Errorf("wrong key: no signature message:\n%s", tail(out))
	}
}

func passed(sum result.Summary, text string) bool { return outcome(sum, text) == result.Passed }
func failed(sum result.Summary, text string) bool { return outcome(sum, text) == result.Failed }

func outcome(sum result.Summary, text string) result.Outcome {
	for _, s := range sum.Specs {
		if strings.Contains(s.Text, text) {
			return s.Outcome
		}
	}
	return ""
}

func tail(s string) string {
	if len(s) > 6000 {
		return "…" + s[len(s)-6000:]
	}
	return s
}

// TestTeardownRunsAfterInterrupt interrupts a slowed-down run (Ctrl-C) and
// checks that the cards created so far were still swept back and frozen.
func TestTeardownRunsAfterInterrupt(t *testing.T) {
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := t.TempDir()
	cmd := exec.Command(mphBinary(t), "conform", "--no-color", "--out", out, "--max-rps", "40", "--focus", "Card issuance|Withdrawal|Card model")
	cmd.Env = append(os.Environ(), runningEnv(r)...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for readBalances(t, r, sandbox.DemoMerchants()[0].ID).Count < 3 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("an interrupted run exits 130, got %v", err)
	}
	var sum result.Summary
	b, err := os.ReadFile(filepath.Join(out, "report.summary.json"))
	if err != nil || json.Unmarshal(b, &sum) != nil || sum.Money == nil {
		t.Fatalf("no summary with money after the interrupt (%v):\n%s", err, tail(buf.String()))
	}
	if !strings.Contains(strings.ToLower(buf.String()), "interrupted") {
		t.Fatalf("the run was not interrupted:\n%s", tail(buf.String()))
	}
	m := sum.Money
	if m.Teardown != "done" || m.CardsCreated == 0 || m.CardsFrozen != m.CardsCreated {
		t.Fatalf("teardown after the interrupt: %+v\n%s", m, tail(buf.String()))
	}
	if a := readBalances(t, r, sandbox.DemoMerchants()[0].ID); int64(a.Cards) != m.LeftOnCards["USD"] {
		t.Errorf("cards hold %s USD, the summary says %d minor units left", a.Cards, m.LeftOnCards["USD"])
	}
}

// TestSweepCommandReturnsAKeptRun keeps a run's cards (--no-teardown), then
// mph sweep --run-id returns their money and freezes them.
func TestSweepCommandReturnsAKeptRun(t *testing.T) {
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	alpha := sandbox.DemoMerchants()[0].ID
	code, out, sum := runConformEnv(t, runningEnv(r), "--no-teardown", "--run-id", "mphsweep1", "--focus", "Card issuance|Withdrawal")
	if code != 0 || sum.Money == nil || sum.Money.CardsCreated == 0 {
		t.Fatalf("conform exit %d:\n%s", code, tail(out))
	}
	kept := readBalances(t, r, alpha)
	if kept.Cards == 0 {
		t.Fatal("--no-teardown left no money on the cards")
	}
	cmd := exec.Command(mphBinary(t), "sweep", "--run-id", "mphsweep1")
	cmd.Env = append(os.Environ(), runningEnv(r)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mph sweep: %v\n%s", err, b)
	}
	after := readBalances(t, r, alpha)
	if int64(after.Cards) > 9*int64(sum.Money.CardsCreated) || after.Vault <= kept.Vault {
		t.Fatalf("after mph sweep the cards hold %s USD (before %s) and the vault %s (before %s):\n%s", after.Cards, kept.Cards, after.Vault, kept.Vault, b)
	}
	if !strings.Contains(string(b), "USD swept back") {
		t.Errorf("no sweep summary:\n%s", b)
	}
}

// TestDiscoverThenConform: against a server whose "not shown" choices differ
// from the sandbox's, the discovered profile lets the whole suite pass.
func TestDiscoverThenConform(t *testing.T) {
	const base = "/api/v1/merchant"
	srv, err := sandbox.New(sandbox.Options{BasePath: base})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(discovertest.Alternative(srv, base))
	defer ts.Close()
	demo := sandbox.DemoMerchants()
	env := append(os.Environ(), "MPH_BASE_URL="+ts.URL+base, "MPH_CONTROLS_URL="+ts.URL+"/_sandbox", "MPH_ADMIN_KEY="+sandbox.DefaultAdminKey,
		"MPH_MERCHANT_ID="+demo[0].ID, "MPH_SECRET_KEY="+demo[0].TestKey, "MPH_MERCHANT2_ID="+demo[1].ID, "MPH_SECRET_KEY2="+demo[1].TestKey)
	profile := filepath.Join(t.TempDir(), "alt.yaml")
	disc := exec.Command(mphBinary(t), "profile", "discover", "-o", profile)
	disc.Env = env
	if b, err := disc.CombinedOutput(); err != nil {
		t.Fatalf("mph profile discover: %v\n%s", err, b)
	}
	code, out, _ := runConformEnv(t, env[len(os.Environ()):], "--profile", profile)
	if code != 0 {
		t.Fatalf("conform --profile <discovered> exit %d:\n%s", code, tail(out))
	}
	code, _, _ = runConformEnv(t, env[len(os.Environ()):])
	if code == 0 {
		t.Error("with the default profile the alternative server should fail a spec")
	}
}

// TestPlanSendsNoRequest: --plan prints what the selection creates and
// spends, and the target receives nothing.
func TestPlanSendsNoRequest(t *testing.T) {
	var hits atomic.Int32
	tgt := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer tgt.Close()
	cmd := exec.Command(mphBinary(t), "conform", "--plan", "--focus", "Withdrawal", "--max-spend", "USD=12")
	cmd.Env = append(os.Environ(), "MPH_BASE_URL="+tgt.URL+"/v1/merchant", "MPH_MERCHANT_ID=mer_x", "MPH_SECRET_KEY=sk_test_plan_only_key")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mph conform --plan: %v\n%s", err, b)
	}
	out := string(b)
	for _, want := range []string{"no request sent to it", "sandbox controls no", "creates: ", "most it can spend: ", "--max-spend refuses"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the target received %d requests", n)
	}
}
