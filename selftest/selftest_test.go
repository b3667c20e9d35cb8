package selftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// fakeConform stands in for `mph conform`: for each fault it fails the specs
// listed in catches, exits 2 (pre-flight) for the faults in preflight, and
// writes Ginkgo's JSON report as conform would.
func fakeConform(t *testing.T, catches map[string][]string, preflight map[string]bool) Runner {
	return func(ctx context.Context, j Job) (Outcome, error) {
		fault, reportPath := j.Label, j.ReportPath
		env := strings.Join(Environ(j.Config), "\n")
		for _, want := range []string{config.EnvBaseURL + "=http://127.0.0.1:", config.EnvSecretKey + "=sk_test_", config.EnvMerchant2ID + "=", config.EnvControlsURL + "=http", config.EnvAllowLive + "=1"} {
			if !strings.Contains(env, want) {
				t.Errorf("child environment lacks %s", want)
			}
		}
		if preflight[fault] {
			return Outcome{ExitCode: 2, Output: []byte("mph: pre-flight: the target rejected the credentials")}, nil
		}
		rep := types.Report{SuiteSucceeded: len(catches[fault]) == 0}
		rep.SpecReports = append(rep.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: "always passes", State: types.SpecStatePassed})
		for _, spec := range catches[fault] {
			rep.SpecReports = append(rep.SpecReports, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: spec, State: types.SpecStateFailed})
		}
		b, _ := json.Marshal([]types.Report{rep})
		if err := os.WriteFile(reportPath, b, 0o644); err != nil {
			return Outcome{ExitCode: -1}, err
		}
		if len(catches[fault]) > 0 {
			return Outcome{ExitCode: 1}, nil
		}
		return Outcome{}, nil
	}
}

func TestExecuteBuildsTheKillMatrix(t *testing.T) {
	all := fault.All()
	if len(all) < 3 {
		t.Fatalf("the fault catalogue has %d faults; the self-test needs at least 3", len(all))
	}
	faults := all[:3]
	killed, preflighted, survivor := faults[0], faults[1], faults[2]
	m, err := Execute(context.Background(), Options{
		Faults:   faults,
		Parallel: 2,
		Run: fakeConform(t,
			map[string][]string{killed.Name: {"spec B", "spec A"}},
			map[string]bool{preflighted.Name: true}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !m.CleanOK || m.Clean.Passed != 1 {
		t.Fatalf("clean run: %+v", m.Clean)
	}
	if m.Killed != 2 || m.Total != 3 || len(m.Survivors) != 1 || m.Survivors[0].Fault.Name != survivor.Name {
		t.Fatalf("matrix: killed %d/%d, survivors %+v", m.Killed, m.Total, m.Survivors)
	}
	if got := m.Entries[0].Run.Failed; len(got) != 2 || got[0] != "spec A" {
		t.Fatalf("caught-by list should be sorted and complete: %v", got)
	}
	if m.OK() {
		t.Fatal("a survivor must fail the self-test")
	}
	var text, js bytes.Buffer
	m.WriteText(&text)
	if err := m.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SURVIVOR " + survivor.Name, "kill rate: 2/3", "clean sandbox: PASS", "pre-flight", "the specs citing " + FaultSelection(survivor) + " passed", "--full --fault " + survivor.Name} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text matrix lacks %q:\n%s", want, text.String())
		}
	}
	var back Matrix
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Killed != 2 {
		t.Fatalf("JSON matrix does not round-trip: %v", err)
	}
}

func TestFalsePositiveFailsTheSelfTest(t *testing.T) {
	m, err := Execute(context.Background(), Options{
		Faults: []fault.Fault{},
		Run:    fakeConform(t, map[string][]string{"": {"a spec that fails a good server"}}, nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.CleanOK || m.OK() {
		t.Fatal("a failing clean run must fail the self-test")
	}
}

func TestBrokenRunIsAnErrorNotAKill(t *testing.T) {
	faults := fault.All()[:1]
	m, err := Execute(context.Background(), Options{
		Faults: faults,
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			if j.Label == "" {
				return fakeConform(t, nil, nil)(ctx, j)
			}
			return Outcome{ExitCode: 1, Output: []byte("panic: harness bug")}, nil // exit 1 but no report written
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Killed != 0 || len(m.Errors) != 1 || m.OK() {
		t.Fatalf("a run without a report must count as an error: %+v", m)
	}
}

func TestUsageErrorIsNotAKill(t *testing.T) {
	faults := fault.All()[:1]
	m, err := Execute(context.Background(), Options{
		Faults: faults,
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			if j.Label == "" {
				return fakeConform(t, nil, nil)(ctx, j)
			}
			return Outcome{ExitCode: 2, Output: []byte("mph: unknown flag: --quiet")}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Killed != 0 || len(m.Errors) != 1 {
		t.Fatalf("a usage error in the child must be a harness error, not a kill: %+v", m.Entries)
	}
}

// A fault's run selects the specs citing its requirements; with Full, and
// for the clean run, every spec.
func TestFaultRunsSelectTheSpecsCitingTheirRequirements(t *testing.T) {
	faults := fault.All()[:2]
	for _, full := range []bool{false, true} {
		got := map[string]string{}
		var mu sync.Mutex
		m, err := Execute(context.Background(), Options{
			Faults: faults, Variants: []variant.Variant{}, Seeds: []uint64{}, Full: full,
			Run: func(ctx context.Context, j Job) (Outcome, error) {
				mu.Lock()
				got[j.Label] = j.LabelFilter
				mu.Unlock()
				return fakeConform(t, nil, nil)(ctx, j)
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if f, ok := got[""]; !ok || f != "" {
			t.Errorf("full=%v: the clean run selected %q; it must run every spec", full, f)
		}
		for _, f := range faults {
			want := FaultSelection(f)
			if full {
				want = ""
			}
			if got[f.Name] != want {
				t.Errorf("full=%v: fault %s selected %q, want %q", full, f.Name, got[f.Name], want)
			}
		}
		if m.FullSelection != full || m.Entries[0].Run.Selection != got[faults[0].Name] {
			t.Errorf("full=%v: the matrix records fullSelection %v and selection %q", full, m.FullSelection, m.Entries[0].Run.Selection)
		}
	}
	if s := FaultSelection(fault.Fault{Requirements: []string{"AUTH-12", "ERR-15"}}); s != "AUTH-12 || ERR-15" {
		t.Errorf("FaultSelection = %q", s)
	}
}

// A focused run that selects nothing survives, and the matrix says why.
func TestEmptySelectionSurvives(t *testing.T) {
	f := fault.All()[0]
	m, err := Execute(context.Background(), Options{
		Faults: []fault.Fault{f}, Variants: []variant.Variant{}, Seeds: []uint64{},
		Run: func(ctx context.Context, j Job) (Outcome, error) {
			if j.Label == "" {
				return fakeConform(t, nil, nil)(ctx, j)
			}
			b, _ := json.Marshal([]types.Report{{SuiteSucceeded: true}})
			return Outcome{}, os.WriteFile(j.ReportPath, b, 0o644)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	m.WriteText(&text)
	if m.Killed != 0 || len(m.Survivors) != 1 || !strings.Contains(text.String(), "(no spec cites "+FaultSelection(f)+")") {
		t.Fatalf("an empty selection must survive and say so:\n%s", text.String())
	}
}

// The child writes only the JSON report the verdict reads, keeps the cards
// (no teardown), and gets the label filter with --allow-empty.
func TestConformArgs(t *testing.T) {
	all := strings.Join(conformArgs(Job{ReportPath: "/w/clean.json"}), " ")
	for _, want := range []string{"conform ", "--no-teardown", "--no-html", "--no-junit", "--no-markdown", "--json-report /w/clean.json", "--out /w/clean-reports"} {
		if !strings.Contains(all, want) {
			t.Errorf("conform args %q lack %q", all, want)
		}
	}
	if strings.Contains(all, "--label-filter") {
		t.Errorf("a run without a filter passes one: %q", all)
	}
	focused := strings.Join(conformArgs(Job{ReportPath: "/w/f.json", LabelFilter: "AUTH-12 || ERR-15"}), "\x00")
	if !strings.Contains(focused, "--label-filter\x00AUTH-12 || ERR-15") || !strings.Contains(focused, "--allow-empty") {
		t.Errorf("focused args %q", focused)
	}
}

// The timing lists the slowest runs first, at most SlowestShown of them.
func TestTimingListsTheSlowestRuns(t *testing.T) {
	m := &Matrix{Clean: Run{Duration: 5, CPU: 2, Passed: 3}, CleanSandbox: Run{Duration: 1}}
	for i := 0; i < 12; i++ {
		m.Entries = append(m.Entries, Entry{Fault: fault.Fault{Name: fmt.Sprintf("f%d", i)}, Run: Run{Duration: Millis(i), Failed: []string{"x"}}})
	}
	tm := timing(m, 4)
	if tm.Runs != 14 || tm.Parallel != 4 || len(tm.Slowest) != SlowestShown || tm.Slowest[0].Run != "f11" || tm.Slowest[1].Run != "f10" {
		t.Fatalf("timing = %+v", tm)
	}
	if tm.RunTime != 5+1+66 || tm.CPU != 2 || tm.Slowest[0].Specs != 1 {
		t.Fatalf("totals = %+v", tm)
	}
	m.Timing = tm
	var text bytes.Buffer
	m.writeTiming(&text)
	if !strings.Contains(text.String(), "slowest 10 runs") || !strings.Contains(text.String(), "f11") || strings.Contains(text.String(), "f1\n") {
		t.Fatalf("timing text:\n%s", text.String())
	}
}

// The matrix JSON goes through the redacting writer (mph selftest --json):
// no number of it may hold a run of digits that writer masks as a card
// number, such as a rate of 95/96 or a sum of nanoseconds past 1000 s.
func TestMatrixJSONSurvivesRedaction(t *testing.T) {
	f := fault.All()[0]
	m := &Matrix{Total: 96, Killed: 95, KillRate: roundRate(95, 96), Duration: Millis(20 * time.Minute)}
	for i := 0; i < 200; i++ {
		m.Entries = append(m.Entries, Entry{Fault: f, Run: Run{Duration: Millis(9 * time.Second), CPU: Millis(3 * time.Second)}})
	}
	m.Timing = timing(m, 4)
	var b bytes.Buffer
	if err := m.WriteJSON(redact.NewWriter(&b)); err != nil {
		t.Fatal(err)
	}
	var back Matrix
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		i := strings.Index(b.String(), "*")
		t.Fatalf("the redacted matrix JSON does not parse: %v\n%s", err, b.String()[max(0, i-200):i+50])
	}
	if back.KillRate != 0.9896 || back.Timing.RunTime != Millis(1800*time.Second) || back.Timing.Slowest[0].Duration != Millis(9*time.Second) || back.Duration != m.Duration {
		t.Fatalf("round trip: rate %v, run time %v, slowest %+v", back.KillRate, back.Timing.RunTime, back.Timing.Slowest[0])
	}
}
