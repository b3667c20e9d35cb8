package selftest

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"
)

// SlowestShown is how many of the slowest runs the matrix lists.
const SlowestShown = 10

// Timing is where the self-test's time went.
type Timing struct {
	Parallel int `json:"parallel"` // runs at a time
	Runs     int `json:"runs"`
	// RunTime is the sum of the runs' wall times; CPU the sum of the
	// children's CPU times (the sandboxes, in this process, not included).
	RunTime Millis `json:"runTimeMs"`
	CPU     Millis `json:"cpuMs"`
	// Slowest are the SlowestShown runs of longest wall time, slowest first.
	Slowest []RunTime `json:"slowest"`
}

// RunTime is the cost of one run.
type RunTime struct {
	Run      string `json:"run"` // "clean", the fault's name or "variant:NAME"
	Duration Millis `json:"durationMs"`
	CPU      Millis `json:"cpuMs"`
	Specs    int    `json:"specs"` // specs that ran (passed or failed)
}

// Millis is a duration that JSON writes as whole milliseconds: nanoseconds
// reach 13 digits after 1000 s, and the redacting writer masks any run of
// 13 or more digits as a card number, which would break the JSON.
type Millis time.Duration

// MarshalJSON writes whole milliseconds.
func (d Millis) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatInt(time.Duration(d).Milliseconds(), 10)), nil
}

// UnmarshalJSON reads whole milliseconds.
func (d *Millis) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(string(b), 10, 64)
	*d = Millis(time.Duration(n) * time.Millisecond)
	return err
}

// Round is the duration rounded to a multiple of to.
func (d Millis) Round(to time.Duration) time.Duration { return time.Duration(d).Round(to) }

// timing sums the runs of m and picks the slowest.
func timing(m *Matrix, parallel int) Timing {
	all := []RunTime{runTime("clean", m.Clean), runTime("clean:sandbox-profile", m.CleanSandbox)}
	for _, e := range m.Entries {
		all = append(all, runTime(e.Fault.Name, e.Run))
	}
	for _, e := range m.Variants {
		all = append(all, runTime("variant:"+e.Variant.Name, e.Run))
	}
	for _, e := range m.Seeds {
		all = append(all, runTime(fmt.Sprintf("seed:%d", e.Seed), e.Run))
	}
	t := Timing{Parallel: parallel, Runs: len(all)}
	for _, r := range all {
		t.RunTime += r.Duration
		t.CPU += r.CPU
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Duration > all[j].Duration })
	t.Slowest = all[:min(SlowestShown, len(all))]
	return t
}

func runTime(name string, r Run) RunTime {
	return RunTime{Run: name, Duration: r.Duration, CPU: r.CPU, Specs: r.Passed + len(r.Failed)}
}

// writeTiming prints the totals and the slowest runs.
func (m *Matrix) writeTiming(w io.Writer) {
	t := m.Timing
	if t.Runs == 0 {
		return
	}
	fmt.Fprintf(w, "\ntiming: %d runs, %d at a time, in %s (run times add up to %s; the children used %s of CPU)\n",
		t.Runs, t.Parallel, m.Duration.Round(100*time.Millisecond), t.RunTime.Round(100*time.Millisecond), t.CPU.Round(100*time.Millisecond))
	fmt.Fprintf(w, "slowest %d runs:\n", len(t.Slowest))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "WALL\tCPU\tSPECS\t  RUN")
	for _, r := range t.Slowest {
		fmt.Fprintf(tw, "%s\t%s\t%d\t  %s\n", r.Duration.Round(10*time.Millisecond), r.CPU.Round(10*time.Millisecond), r.Specs, r.Run)
	}
	tw.Flush()
}
