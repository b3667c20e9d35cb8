// Package console is what `mph sandbox` prints: the banner of a running
// sandbox (its URLs, admin key, webhook presets, faults and the demo
// credentials) and the fault and setting catalogues as text (their
// Markdown is sandbox/catalogue's).
package console

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// Banner writes what a user needs to reach the running sandbox r, started
// with the named faults.
func Banner(w io.Writer, r *sandbox.Running, faults []string) {
	fmt.Fprintf(w, "mph sandbox: Merchant Payments API v1 reference sandbox\n\n")
	fmt.Fprintf(w, "  base URL      %s\n", r.BaseURL)
	if r.ControlsURL == "" {
		fmt.Fprintf(w, "  controls      hidden (--hide-controls)\n")
	} else {
		fmt.Fprintf(w, "  controls URL  %s  (header X-Sandbox-Admin-Key)\n", r.ControlsURL)
		fmt.Fprintf(w, "  admin key     %s\n", r.AdminKey)
	}
	for _, p := range r.Server.WebhookPresets() {
		fmt.Fprintf(w, "  webhook URL   %s → %s\n", p.MerchantID, p.URL)
	}
	if len(faults) > 0 {
		fmt.Fprintf(w, "  FAULTS        %s  (deliberately non-conformant)\n", strings.Join(faults, ", "))
	}
	fmt.Fprintf(w, "\nDemo credentials (well-known, sandbox only):\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  merchantId\tTEST key\tLIVE key\tKYB\trole")
	for _, m := range sandbox.DemoMerchants() {
		live := m.LiveKey
		if live == "" {
			live = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\n", m.ID, m.TestKey, live, m.KYBTier, m.Role)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
}

// Faults lists the fault catalogue: name, the requirements each breaks,
// description.
func Faults(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBREAKS\tDESCRIPTION")
	for _, f := range fault.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, strings.Join(f.Requirements, ","), f.Description)
	}
	_ = tw.Flush()
}

// Variants lists the dimensions and their settings (the references marked
// *), each with the document's words allowing it and the profile it needs.
func Variants(w io.Writer) {
	dims := variant.Dimensions()
	n := 0
	for _, d := range dims {
		fmt.Fprintf(w, "%s  (%s)\n  %s\n", d.Name, strings.Join(d.OpenPoints, ", "), d.Description)
		for _, v := range d.Settings {
			mark := "  "
			if v.Reference {
				mark = "* "
			} else {
				n++
			}
			fmt.Fprintf(w, "  %s%s: %s\n", mark, v.Name, v.Description)
			if !v.Reference {
				fmt.Fprintf(w, "      document: %s\n", v.Document)
			}
			if v.Profile != "" {
				fmt.Fprintf(w, "      profile: %s\n", strings.Join(strings.Fields(v.Profile), " "))
			}
		}
	}
	fmt.Fprintf(w, "\n%d dimensions, %d settings besides the references (marked *); docs/variants.md\n", len(dims), n)
}
