package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/result"
)

// TestConformNoVerdictExitCodes: a spec whose call is still rate limited
// after the wait reaches no verdict, and no verdict is never a pass: the run
// exits 3 (the sandbox's read group refills one request per 100 s, longer
// than the 1 s Retry-After the harness waits out). --accept-no-verdict with
// the spec's ID, or all, accepts it by name (exit 0, still reported); an
// unknown ID is a usage error. (report.TestNoVerdictAcceptedByName has the
// exit code of every mix of outcomes.)
func TestConformNoVerdictExitCodes(t *testing.T) {
	const focus = "One card: GET /cards/{id} answers 404 for a card that does not exist"
	ids := specIDs(t, focus)
	if len(ids) != 1 {
		t.Fatalf("focus selects %v", ids)
	}
	dir := t.TempDir()
	env := sandboxEnv(t, nil, nil)
	sandboxPut(t, env, "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`)
	env = append(env, "MPH_RETRY_AFTER_MAX=1s")
	conform := func(env []string, name string, args ...string) (runResult, result.Summary) {
		out := filepath.Join(dir, name)
		r := gateRun(t, env, 0, 0, append([]string{"conform", "--out", out, "--focus", focus}, args...)...)
		if r.code == 2 {
			return r, result.Summary{}
		}
		return r, readSummary(t, filepath.Join(out, "report.summary.json"))
	}

	r, s := conform(env, "no-verdict")
	expectCode(t, "no verdict", r, 3)
	if s.NoVerdict != 1 || s.NoVerdictAccepted != 0 || s.Passed != 0 || len(s.Specs) != 1 || s.Specs[0].Outcome != result.NoVerdict ||
		!strings.Contains(s.Specs[0].Message, "rate limited") || !strings.Contains(r.stderr, "reached no verdict") {
		t.Errorf("no-verdict run: %+v\nstderr: %s", s, r.stderr)
	}
	if !strings.Contains(r.stdout, "1 no verdict") || !strings.Contains(r.stdout, "No verdict (") {
		t.Errorf("the console does not count the no verdict apart:\n%s", r.stdout)
	}
	r, s = conform(env, "accepted", "--accept-no-verdict", ids[0])
	expectCode(t, "no verdict accepted by ID", r, 0)
	if s.NoVerdict != 1 || s.NoVerdictAccepted != 1 || !s.Specs[0].Accepted {
		t.Errorf("accepted run: %+v", s)
	}
	r, _ = conform(env, "accepted-all", "--accept-no-verdict", "all")
	expectCode(t, "every no verdict accepted", r, 0)
	r, _ = conform(env, "unknown", "--accept-no-verdict", "cards.no-such-spec")
	expectCode(t, "unknown ID accepted", r, 2)
	if !strings.Contains(r.stderr, "unknown spec ID") {
		t.Errorf("unknown ID: stderr %s", r.stderr)
	}
}

// TestConformUndeterminedKeyIsNoVerdict: a spec whose profile key discovery
// left undetermined reaches no verdict naming the key (exit 3), instead of
// judging by a default the target may not share.
func TestConformUndeterminedKeyIsNoVerdict(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(profile, []byte("undetermined: [giftCards.quote.totalPointer]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	r := gateRun(t, nil, 0, 0, "conform", "--out", out, "--profile", profile, "--label-filter", "quotes && !destructive")
	expectCode(t, "undetermined key", r, 3)
	s := readSummary(t, filepath.Join(out, "report.summary.json"))
	var gift result.Spec
	for _, sp := range s.Specs {
		if sp.ID == "quotes.answers-gift-card-quote" {
			gift = sp
		}
	}
	if gift.Outcome != result.NoVerdict || !strings.Contains(gift.Message, "giftCards.quote.totalPointer is undetermined") || s.Passed == 0 {
		t.Errorf("the gift quote spec: %+v (passed %d)", gift, s.Passed)
	}
}
