package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/merchant-harness/mph/result"
)

// PlanView is what mph conform --plan measured: the run of the selection
// against a sandbox offering the target's capabilities.
type PlanView struct {
	Where   string // the target, as the plan names it
	Summary result.Summary
	// The capabilities the configuration gives.
	Controls, Second, Live, LowKYB, Blocked bool
}

// PlanConsole prints the plan: what the selection creates and the most it
// can spend.
func PlanConsole(v PlanView) Reporter {
	return func(w io.Writer) error {
		writePlan(w, v)
		return nil
	}
}

func writePlan(w io.Writer, v PlanView) {
	sum := v.Summary
	yn := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(w, "\nmph conform --plan for %s (no request sent to it)\n", v.Where)
	fmt.Fprintf(w, "  capabilities from the configuration: sandbox controls %s, second merchant %s, LIVE Tier 2 %s, LIVE below Tier 2 %s, non-whitelisted %s\n",
		yn(v.Controls), yn(v.Second), yn(v.Live), yn(v.LowKYB), yn(v.Blocked))
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
		minor(m.Funded), m.CardsCreated, minor(usd))
	if ngn, ok := m.Spent["NGN"]; ok {
		fmt.Fprintf(w, ", %s NGN of gift orders", minor(ngn))
	}
	fmt.Fprintln(w)
	writeAreas(w, m.ByArea)
	if m.SkippedOverBudget > 0 {
		fmt.Fprintf(w, "  --max-spend refuses %d requests (their specs are skipped)\n", m.SkippedOverBudget)
	}
	fmt.Fprintf(w, "  teardown sweeps back what the cards still hold (%s USD at the sandbox's fees) unless --no-teardown\n", minor(m.SweptBack["USD"]))
	fmt.Fprintln(w, "  (measured by running the selection against an embedded sandbox with these capabilities and the default profile; randomised property specs may vary slightly)")
}

// writeAreas lists what each area of specs spends, the costliest first.
func writeAreas(w io.Writer, areas map[string]result.AreaSpend) {
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
		fmt.Fprintf(w, "    %-60s %3d cards %10s USD", result.Cut(n, 60), a.Cards, minor(a.Spent["USD"]))
		if a.GiftOrders > 0 {
			fmt.Fprintf(w, "  %d gift orders %s NGN", a.GiftOrders, minor(a.Spent["NGN"]))
		}
		fmt.Fprintln(w)
	}
}
