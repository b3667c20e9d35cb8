package coverage

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/merchant-harness/mph/requirements"
	"github.com/merchant-harness/mph/suites/framework"
)

// WriteRequirements writes, per requirement, how many specs cover it on a
// plain TEST server, with a second merchant, with LIVE credentials and only
// with sandbox controls, then the cumulative figures and the requirements
// that only sandbox controls reach. It returns the testable requirements no
// spec covers, sorted. The declarations of the built tree carry the needs.
func WriteRequirements(out io.Writer) (uncovered []string) {
	cols := framework.CoverageColumns()
	all := requirements.All()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "REQUIREMENT\t%s\t%s\t%s\t%s\tNOTE\n", framework.SettingNames[0], framework.SettingNames[1], framework.SettingNames[2], framework.SettingNames[3])
	var controlsOnly []string
	reach := [4]int{} // testable requirements covered with settings up to i
	for _, r := range all {
		c := cols[r.ID]
		if !r.Testable {
			fmt.Fprintf(w, "%s\t-\t-\t-\t-\tnot testable: %s\n", r.ID, r.Why)
			continue
		}
		first := -1
		for i := range c {
			if len(c[i]) > 0 && first < 0 {
				first = i
			}
		}
		note := ""
		switch first {
		case -1:
			note, uncovered = "UNCOVERED", append(uncovered, r.ID)
		case int(framework.ControlsOnly):
			note, controlsOnly = "covered only through sandbox controls", append(controlsOnly, r.ID)
		}
		for i := max(first, 0); first >= 0 && i < 4; i++ {
			reach[i]++
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%s\n", r.ID, len(c[0]), len(c[1]), len(c[2]), len(c[3]), note)
	}
	w.Flush()
	writeReach(out, reach, len(requirements.Testable()), len(all))
	if len(controlsOnly) > 0 {
		fmt.Fprintf(out, "covered only through sandbox controls (%d): %s\n", len(controlsOnly), strings.Join(controlsOnly, ", "))
	}
	sort.Strings(uncovered)
	return uncovered
}

func writeReach(out io.Writer, reach [4]int, testable, all int) {
	fmt.Fprintf(out, "\n%d requirements, %d testable\n", all, testable)
	labels := []string{"a plain TEST server", "+ a second TEST merchant", "+ LIVE credentials", "+ sandbox test controls"}
	for i, l := range labels {
		fmt.Fprintf(out, "  covered with %-26s %3d of %d (%.0f%%)\n", l+":", reach[i], testable, 100*float64(reach[i])/float64(max(testable, 1)))
	}
}
