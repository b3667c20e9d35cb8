package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/suites/plan"
)

// runPlan measures what the selection creates and spends (package plan)
// and prints the plan.
func runPlan(cmd *cobra.Command, s config.Settings) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	v, err := plan.Measure(cmd.Context(), self, planSelection(), s)
	if err != nil {
		return err
	}
	return report.PlanConsole(v)(cmd.OutOrStdout())
}

// planSelection are the selection flags of the child run.
func planSelection() []string {
	f := &conformOpts
	var args []string
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
