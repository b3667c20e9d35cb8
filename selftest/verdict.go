package selftest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/merchant-harness/mph/exitcode"
	"github.com/merchant-harness/mph/redact"
)

// Verdict maps the matrix to the exit-code contract, saying why: 1 when
// the suites are wrong (a spec failed the clean sandbox, a fault survived,
// a variant or a seed failed), 3 when only runs broke (no verdict: the
// clean run among them when it broke or had harness errors only), 130 when
// interrupted; exitcode.OK and "" when all is well.
func (m *Matrix) Verdict() (code int, why string) {
	if m.Interrupted {
		return exitcode.Interrupted, fmt.Sprintf("self-test: interrupted; child runs stopped, the matrix covers the %d runs that finished", m.Total)
	}
	if m.OK() {
		return exitcode.OK, ""
	}
	cleanFailed := len(m.Clean.Failed) > 0 || len(m.CleanSandbox.Failed) > 0
	code = exitcode.Failed
	if !cleanFailed && len(m.Survivors) == 0 && len(m.FalsePositives) == 0 && len(m.FailedSeeds) == 0 {
		code = exitcode.Harness // only runs that broke: no verdict on the suites
	}
	var reasons []string
	switch {
	case cleanFailed:
		reasons = append(reasons, "the clean sandbox did not pass")
	case !m.CleanOK:
		reasons = append(reasons, "the clean run broke")
	case !m.CleanSandboxOK:
		reasons = append(reasons, "the clean run under the sandbox's own profile broke")
	}
	for _, c := range []struct {
		n    int
		what string
	}{
		{len(m.Survivors), "fault(s) survived"},
		{len(m.FalsePositives), "variant(s) failed (false positives)"},
		{len(m.VariantErrors), "variant run(s) broke"},
		{len(m.FailedSeeds), "seed(s) failed (false positives)"},
		{len(m.SeedErrors), "seed run(s) broke"},
		{len(m.Errors), "run(s) broke"},
	} {
		if c.n > 0 {
			reasons = append(reasons, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return code, "self-test failed: " + strings.Join(reasons, ", ")
}

// SaveJSON writes the matrix as JSON to path, redacted, making its
// directory.
func (m *Matrix) SaveJSON(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := m.WriteJSON(redact.NewWriter(f)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Progress returns the printer of one line per finished run, total runs
// in all.
func Progress(out io.Writer, total int) func(Run) {
	done := 0
	return func(r Run) {
		done++
		name, verdict := r.Fault, "killed"
		switch {
		case r.Variant != "":
			name, verdict = "variant "+r.Variant, mustPassWord(r)
		case r.Seed != 0:
			name, verdict = fmt.Sprintf("seed %d (%d settings)", r.Seed, len(r.Settings)), mustPassWord(r)
		case name == "":
			name, verdict = "(clean, "+r.Profile+" profile)", "passed"
			if len(r.Failed) > 0 || r.Error != "" || r.ExitCode != 0 {
				verdict = "FAILED"
			}
		case r.Error != "":
			verdict = "ERROR"
		case !r.Killed():
			verdict = "SURVIVED"
		}
		fmt.Fprintf(out, "  [%d/%d] %-40s %s (%s)\n", done, total, name, verdict, r.Duration.Round(1e8))
	}
}

// mustPassWord is the progress word of a setting's or a seed's run: it
// must pass.
func mustPassWord(r Run) string {
	switch {
	case r.Clean():
		return "passed"
	case r.Error != "":
		return "ERROR"
	}
	return "FALSE POSITIVE"
}
