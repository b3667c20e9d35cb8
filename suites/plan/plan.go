// Package plan is what a conformance selection will create and spend
// (`mph conform --plan`), measured by running it, in a child mph conform
// with its output discarded, against an embedded sandbox offering only the
// target's capabilities. The target receives no request: the child only
// knows the sandbox.
package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/sandbox"
)

// caps are the capabilities the target will offer, judged from the
// configuration alone (no request is sent to the target).
type caps struct {
	controls, second, live, lowKYB, blocked bool
}

func capsOf(s config.Settings) caps {
	if s.BaseURL == "" {
		return caps{true, true, true, true, true}
	}
	return caps{
		controls: s.AdminKey != "",
		second:   s.Secondary.Set(),
		live:     s.LiveTier2.Set(),
		lowKYB:   s.LiveLowKYB.Set(),
		blocked:  s.NotWhitelisted.Set(),
	}
}

// Measure runs the selection (mph conform's selection flags) with self,
// the mph executable, against an embedded sandbox offering the
// capabilities the settings s give the target, and returns the plan.
func Measure(ctx context.Context, self string, selection []string, s config.Settings) (report.PlanView, error) {
	c := capsOf(s)
	run, err := sandbox.Start(context.Background(), "127.0.0.1:0", sandbox.Options{HideControls: !c.controls})
	if err != nil {
		return report.PlanView{}, fmt.Errorf("plan: starting the embedded sandbox: %w", err)
	}
	defer run.Close()
	dir, err := os.MkdirTemp("", "mph-plan-*")
	if err != nil {
		return report.PlanView{}, fmt.Errorf("plan: %w", err)
	}
	defer os.RemoveAll(dir)
	args := append([]string{"conform", "--no-color", "--out", dir, "--json-report", filepath.Join(dir, "report.json")}, selection...)
	child := exec.CommandContext(ctx, self, args...)
	child.Env = env(run, c, s)
	var errOut bytes.Buffer
	child.Stderr = &errOut
	err = child.Run()
	var sum result.Summary
	b, rerr := os.ReadFile(filepath.Join(dir, "report.summary.json"))
	if rerr != nil || json.Unmarshal(b, &sum) != nil {
		return report.PlanView{}, fmt.Errorf("plan: the measuring run wrote no summary (%v): %s", err, redact.Text(errOut.String()))
	}
	where := s.BaseURL
	if where == "" {
		where = "the embedded sandbox"
	}
	return report.PlanView{Where: where, Summary: sum, Controls: c.controls, Second: c.second, Live: c.live, LowKYB: c.lowKYB, Blocked: c.blocked}, nil
}

// env is the child's environment: no variable of the user's target, the
// sandbox with the demo credentials of the capabilities the target offers,
// and the money options (--max-spend and --slow apply; --max-rps would
// only slow the plan).
func env(run *sandbox.Running, c caps, s config.Settings) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, config.EnvPrefix) {
			out = append(out, kv)
		}
	}
	cfg := config.FromLocal(*embedded.Local(run), nil)
	cfg.Embedded = false // the child reaches it by URL, as it would the target: no LIVE consent
	if !c.controls {
		cfg.ControlsURL, cfg.AdminKey = "", ""
	}
	for _, x := range []struct {
		on  bool
		set **config.Credentials
	}{{c.second, &cfg.Secondary}, {c.live, &cfg.LiveTier2}, {c.lowKYB, &cfg.LiveLowKYB}, {c.blocked, &cfg.NotWhitelisted}} {
		if !x.on {
			*x.set = nil
		}
	}
	cfg.Conform = config.Conform{Slow: s.Slow, MaxSpend: s.MaxSpend}
	return append(out, config.Environ(cfg)...)
}
