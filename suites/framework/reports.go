package framework

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/report"
	"github.com/merchant-harness/mph/result"
)

// Meta describes the run for the reports: the target (no credentials in
// its URL), the run id, the harness's version, the profile's name and
// digest, the selection.
func Meta(cfg *config.Config, selection, version string) result.Meta {
	m := result.Meta{Target: report.StripUserinfo(cfg.BaseURL), Embedded: cfg.Embedded, RunID: cfg.RunID, Version: version, Profile: "default", Filter: selection}
	if cfg.ProfilePath != "" {
		m.Profile = filepath.Base(cfg.ProfilePath)
	}
	if b, err := json.Marshal(cfg.Profile); err == nil {
		sum := sha256.Sum256(b)
		m.ProfileDigest = "sha256:" + hex.EncodeToString(sum[:6])
	}
	return m
}

// ReportFiles are the files a run writes, in the order the console lists
// them ("" for one turned off): report.summary.json (the figures every
// other report shows) goes next to report.json.
func (o RunOptions) ReportFiles() []string {
	summary := ""
	if o.JSONReport != "" {
		summary = report.SummaryPath(o.JSONReport)
	}
	return []string{o.JUnitReport, o.JSONReport, summary, o.HTMLReport, o.MarkdownReport}
}

// InterruptLine is what an interrupted run says: how far it got, where its
// reports (marked interrupted) are, and the sweep to run when cards may
// still hold money.
func (o RunOptions) InterruptLine(s result.Summary) string {
	done := s.Selected - s.NotRun
	dir := "no reports"
	for _, p := range []string{o.JSONReport, o.JUnitReport, o.HTMLReport, o.MarkdownReport} {
		if p != "" {
			dir = "reports (marked interrupted) in " + filepath.Dir(p)
			break
		}
	}
	line := fmt.Sprintf("mph conform: interrupted after %d of %d specs (%d failed); %s", done, s.Selected, s.Failed, dir)
	if m := s.Money; m != nil && (m.Teardown == "incomplete" || len(m.Unswept) > 0) {
		line += fmt.Sprintf("; %d cards may still hold money: run mph sweep --run-id %s", len(m.Unswept), o.Report.Meta.RunID)
	}
	return line
}
