package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
)

// planCaps are the capabilities the target will offer, judged from the
// configuration alone (no request is sent to the target).
type planCaps struct {
	controls, second, live, lowKYB, blocked bool
}

func capsOf(s config.Settings) planCaps {
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
func runPlan(cmd *cobra.Command, s config.Settings) error {
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
	var sum result.Summary
	b, rerr := os.ReadFile(filepath.Join(dir, "report.summary.json"))
	if rerr != nil || json.Unmarshal(b, &sum) != nil {
		return fmt.Errorf("plan: the measuring run wrote no summary (%v): %s", err, redact.Text(errOut.String()))
	}
	where := s.BaseURL
	if where == "" {
		where = "the embedded sandbox"
	}
	v := report.PlanView{Where: where, Summary: sum, Controls: caps.controls, Second: caps.second, Live: caps.live, LowKYB: caps.lowKYB, Blocked: caps.blocked}
	return report.PlanConsole(v)(cmd.OutOrStdout())
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
func planEnv(run *sandbox.Running, caps planCaps, s config.Settings) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, config.EnvPrefix) {
			env = append(env, kv)
		}
	}
	cfg := config.FromLocal(*embedded.Local(run), nil)
	cfg.Embedded = false // the child reaches it by URL, as it would the target: no LIVE consent
	if !caps.controls {
		cfg.ControlsURL, cfg.AdminKey = "", ""
	}
	for _, c := range []struct {
		on  bool
		set **config.Credentials
	}{{caps.second, &cfg.Secondary}, {caps.live, &cfg.LiveTier2}, {caps.lowKYB, &cfg.LiveLowKYB}, {caps.blocked, &cfg.NotWhitelisted}} {
		if !c.on {
			*c.set = nil
		}
	}
	cfg.Conform = config.Conform{Slow: s.Slow, MaxSpend: s.MaxSpend}
	return append(env, config.Environ(cfg)...)
}
