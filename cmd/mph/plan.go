package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/target"
	"github.com/merchant-harness/mph/target/embedded"
)

// planCaps are the capabilities the target will offer, judged from the
// configuration alone (no request is sent to the target).
type planCaps struct {
	controls, second, live, lowKYB, blocked bool
}

func capsOf(s target.Settings) planCaps {
	if s.BaseURL == "" {
		return planCaps{true, true, true, true, true}
	}
	return planCaps{
		controls: s.AdminKey != "",
		second:   s.Secondary.Set(),
		live:     s.LiveTier2.Set(),
		lowKYB:   s.LiveLowKYB.Set(),
		blocked:  s.NotWhitelisted.Set(),
	}
}

// runPlan measures what the selection creates and spends by running it, in
// a child mph conform with its output discarded, against an embedded sandbox
// offering only the target's capabilities, and prints the plan. The target
// receives no request: the child only knows the sandbox.
func runPlan(cmd *cobra.Command, s target.Settings) error {
	caps := capsOf(s)
	run, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{HideControls: !caps.controls})
	if err != nil {
		return fmt.Errorf("plan: starting the embedded sandbox: %w", err)
	}
	defer run.Close()
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	dir, err := os.MkdirTemp("", "mph-plan-*")
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	defer os.RemoveAll(dir)
	child := exec.CommandContext(cmd.Context(), self, planArgs(dir)...)
	child.Env = planEnv(run, caps, s)
	var errOut bytes.Buffer
	child.Stderr = &errOut
	err = child.Run()
	var sum report.Summary
	b, rerr := os.ReadFile(filepath.Join(dir, "report.summary.json"))
	if rerr != nil || json.Unmarshal(b, &sum) != nil {
		return fmt.Errorf("plan: the measuring run wrote no summary (%v): %s", err, redact.Text(errOut.String()))
	}
	where := s.BaseURL
	if where == "" {
		where = "the embedded sandbox"
	}
	printPlan(cmd.OutOrStdout(), where, caps, sum)
	return nil
}

// planArgs are the child's arguments: the selection, reports in dir.
func planArgs(dir string) []string {
	f := &conformOpts
	args := []string{"conform", "--no-color", "--out", dir, "--json-report", filepath.Join(dir, "report.json")}
	if f.labelFilter != "" {
		args = append(args, "--label-filter", f.labelFilter)
	}
	for _, x := range f.focus {
		args = append(args, "--focus", x)
	}
	for _, x := range f.skip {
		args = append(args, "--skip", x)
	}
	return args
}

// planEnv is the child's environment: no variable of the user's target,
// the sandbox with the demo credentials of the capabilities the target
// offers, and the money options (--max-spend and --slow apply; --max-rps
// would only slow the plan).
func planEnv(run *sandbox.Running, caps planCaps, s target.Settings) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, target.EnvPrefix) {
			env = append(env, kv)
		}
	}
	cfg := target.FromLocal(*embedded.Local(run), nil)
	cfg.Embedded = false // the child reaches it by URL, as it would the target: no LIVE consent
	if !caps.controls {
		cfg.ControlsURL, cfg.AdminKey = "", ""
	}
	for _, c := range []struct {
		on  bool
		set **target.Credentials
	}{{caps.second, &cfg.Secondary}, {caps.live, &cfg.LiveTier2}, {caps.lowKYB, &cfg.LiveLowKYB}, {caps.blocked, &cfg.NotWhitelisted}} {
		if !c.on {
			*c.set = nil
		}
	}
	cfg.Conform = target.Conform{Slow: s.Slow, MaxSpend: s.MaxSpend}
	return append(env, target.Environ(cfg)...)
}

func printPlan(w io.Writer, where string, caps planCaps, sum report.Summary) {
	yn := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(w, "\nmph conform --plan for %s (no request sent to it)\n", where)
	fmt.Fprintf(w, "  capabilities from the configuration: sandbox controls %s, second merchant %s, LIVE Tier 2 %s, LIVE below Tier 2 %s, non-whitelisted %s\n",
		yn(caps.controls), yn(caps.second), yn(caps.live), yn(caps.lowKYB), yn(caps.blocked))
	fmt.Fprintf(w, "  specs: %d would run, %d would be skipped for a missing precondition, %d not selected\n",
		sum.Passed+sum.Failed+sum.HarnessErrors, sum.Skipped, sum.NotSelected)
	m := sum.Money
	if m == nil {
		fmt.Fprintln(w, "  the selection creates nothing and spends nothing")
		return
	}
	fmt.Fprintf(w, "  creates: %d cards, %d customers, %d gift orders\n", m.CardsCreated, m.CustomersCreated, m.GiftOrders)
	usd := m.Spent["USD"]
	fmt.Fprintf(w, "  most it can spend: %s USD of card funding + %d × the target's creationFee (%s USD at the sandbox's fees)",
		minorStr(m.Funded), m.CardsCreated, minorStr(usd))
	if ngn, ok := m.Spent["NGN"]; ok {
		fmt.Fprintf(w, ", %s NGN of gift orders", minorStr(ngn))
	}
	fmt.Fprintln(w)
	printAreas(w, m.ByArea)
	if m.SkippedOverBudget > 0 {
		fmt.Fprintf(w, "  --max-spend refuses %d requests (their specs are skipped)\n", m.SkippedOverBudget)
	}
	fmt.Fprintf(w, "  teardown sweeps back what the cards still hold (%s USD at the sandbox's fees) unless --no-teardown\n", minorStr(m.SweptBack["USD"]))
	fmt.Fprintln(w, "  (measured by running the selection against an embedded sandbox with these capabilities and the default profile; randomised property specs may vary slightly)")
}

func minorStr(n int64) string {
	s := fmt.Sprintf("%d.%02d", abs64(n)/100, abs64(n)%100)
	if n < 0 {
		return "-" + s
	}
	return strings.TrimSpace(s)
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// printAreas lists what each area of specs spends, the costliest first.
func printAreas(w io.Writer, areas map[string]report.AreaSpend) {
	names := make([]string, 0, len(areas))
	for n := range areas {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := areas[names[i]], areas[names[j]]
		if a.Spent["USD"] != b.Spent["USD"] {
			return a.Spent["USD"] > b.Spent["USD"]
		}
		if a.Spent["NGN"] != b.Spent["NGN"] {
			return a.Spent["NGN"] > b.Spent["NGN"]
		}
		return names[i] < names[j]
	})
	if len(names) > 0 {
		fmt.Fprintln(w, "  by area (at the sandbox's fees):")
	}
	for _, n := range names {
		a := areas[n]
		fmt.Fprintf(w, "    %-60s %3d cards %10s USD", truncate(n, 60), a.Cards, minorStr(a.Spent["USD"]))
		if a.GiftOrders > 0 {
			fmt.Fprintf(w, "  %d gift orders %s NGN", a.GiftOrders, minorStr(a.Spent["NGN"]))
		}
		fmt.Fprintln(w)
	}
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
