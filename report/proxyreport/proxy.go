package proxyreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/report"
)

// Paths are the files of a proxy session's reports.
type Paths struct{ JUnit, JSON, HTML, Markdown string }

// Reporters are the renderings of a proxy session, by file name.
func Reporters(r session.Report) map[string]report.Reporter {
	return map[string]report.Reporter{
		"junit.xml":   bytesReporter(func() ([]byte, error) { return proxyJUnit(r) }),
		"report.json": report.JSON(r),
		"report.html": bytesReporter(func() ([]byte, error) { return proxyHTML(r) }),
		"report.md":   bytesReporter(func() ([]byte, error) { return proxyMarkdown(r) }),
	}
}

// Write writes junit.xml, report.json, report.html and report.md into dir.
func Write(dir string, r session.Report) (Paths, error) {
	p := Paths{
		JUnit: filepath.Join(dir, "junit.xml"), JSON: filepath.Join(dir, "report.json"),
		HTML: filepath.Join(dir, "report.html"), Markdown: filepath.Join(dir, "report.md"),
	}
	return p, report.WriteAll(dir, Reporters(r))
}

// bytesReporter adapts a renderer into memory to a Reporter.
func bytesReporter(render func() ([]byte, error)) report.Reporter {
	return func(w io.Writer) error {
		b, err := render()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
}

type proxyJUnitSuites struct {
	XMLName  xml.Name          `xml:"testsuites"`
	Name     string            `xml:"name,attr"`
	Tests    int               `xml:"tests,attr"`
	Failures int               `xml:"failures,attr"`
	Time     string            `xml:"time,attr"`
	Suites   []proxyJUnitSuite `xml:"testsuite"`
}

type proxyJUnitSuite struct {
	Name       string               `xml:"name,attr"`
	Tests      int                  `xml:"tests,attr"`
	Failures   int                  `xml:"failures,attr"`
	Timestamp  string               `xml:"timestamp,attr"`
	Properties []proxyJUnitProperty `xml:"properties>property,omitempty"`
	Cases      []proxyJUnitCase     `xml:"testcase"`
	SystemOut  string               `xml:"system-out,omitempty"`
}

type proxyJUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type proxyJUnitCase struct {
	Name      string             `xml:"name,attr"`
	Classname string             `xml:"classname,attr"`
	Failure   *proxyJUnitFailure `xml:"failure,omitempty"`
	SystemOut string             `xml:"system-out,omitempty"`
}

type proxyJUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// proxyMaxCaseLines bounds the violation lines quoted in one JUnit case.
const proxyMaxCaseLines = 20

// proxyJUnit renders one test suite per side and one case per rule seen.
func proxyJUnit(r session.Report) ([]byte, error) {
	all := proxyJUnitSuites{Name: "mph proxy", Time: fmt.Sprintf("%.3f", r.Ended.Sub(r.Started).Seconds())}
	for _, side := range []session.Side{session.Server, session.Client} {
		s := proxyJUnitSuite{Name: "mph proxy " + string(side) + " side", Timestamp: r.Started.UTC().Format(time.RFC3339)}
		s.Properties = []proxyJUnitProperty{{"upstream", r.Upstream}, {"interrupted", fmt.Sprint(r.Interrupted)}}
		for _, rule := range r.Rules {
			if rule.Side != side {
				continue
			}
			c := proxyJUnitCase{Name: rule.Rule + ": " + rule.Text, Classname: "mph.proxy." + string(side),
				SystemOut: fmt.Sprintf("checked %d time(s)", rule.Checked)}
			if rule.Violations > 0 {
				c.Failure = &proxyJUnitFailure{Type: "violation",
					Message: fmt.Sprintf("%d violation(s) in %d check(s)", rule.Violations, rule.Checked),
					Text:    strings.Join(proxyViolationLines(r.Violations, side, rule.Rule, proxyMaxCaseLines), "\n")}
				s.Failures++
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		s.SystemOut = proxyEndpointTable(r.Endpoints)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Suites = append(all.Suites, s)
	}
	b, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

func proxyViolationLines(vs []session.Violation, side session.Side, rule string, n int) []string {
	var out []string
	for _, v := range vs {
		if v.Side == side && v.Rule == rule {
			if len(out) == n {
				out = append(out, "… more in report.json")
				break
			}
			out = append(out, v.Line())
		}
	}
	return out
}

func proxyEndpointTable(es []session.EndpointStat) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-44s %9s %7s %7s\n", "endpoint", "exchanges", "server", "client")
	for _, e := range es {
		fmt.Fprintf(&b, "%-44s %9d %7d %7d\n", e.Endpoint, e.Exchanges, e.ServerViolations, e.ClientViolations)
	}
	return b.String()
}

// proxyMarkdown renders the report for a pull request or a wiki page.
func proxyMarkdown(r session.Report) ([]byte, error) {
	var b strings.Builder
	verdict := "PASSED"
	if r.Failed {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, "# mph proxy report: %s\n\n", verdict)
	fmt.Fprintf(&b, "Upstream `%s`, %s to %s", proxyMDCell(r.Upstream), r.Started.UTC().Format(time.RFC3339), r.Ended.UTC().Format(time.RFC3339))
	if r.Interrupted {
		b.WriteString(" (interrupted)")
	}
	if r.InProgress {
		b.WriteString(" (in progress)")
	}
	fmt.Fprintf(&b, ", fail on: %s.\n\n", r.FailOn)
	fmt.Fprintf(&b, "%d exchanges: %d server-side and %d client-side violations; %d outside the merchant root, %d to no documented endpoint, %d with a body over the inspection cap, %d uninspected while the inspection memory was in use, %d upstream errors.\n\n",
		r.Exchanges, r.Server, r.Client, r.NotAPI, r.Unknown, r.OverCap, r.OverMemory, r.UpstreamErrors)
	if r.CheckErrors > 0 {
		fmt.Fprintf(&b, "**%d exchanges could not be checked (internal error of the proxy).**\n\n", r.CheckErrors)
	}
	b.WriteString("## Endpoints\n\n| endpoint | exchanges | statuses | server violations | client violations |\n| :- | -: | :- | -: | -: |\n")
	for _, e := range r.Endpoints {
		fmt.Fprintf(&b, "| `%s` | %d | %s | %d | %d |\n", e.Endpoint, e.Exchanges, proxyStatusList(e.Statuses), e.ServerViolations, e.ClientViolations)
	}
	if len(r.Clients) > 0 {
		b.WriteString("\n## Clients\n\n| client | exchanges | client violations |\n| :- | -: | -: |\n")
		for _, c := range r.Clients {
			fmt.Fprintf(&b, "| `%s` | %d | %d |\n", proxyMDCell(c.Client), c.Exchanges, c.ClientViolations)
		}
	}
	b.WriteString("\n## Rules\n\n| side | rule | checked | violations | requirement |\n| :- | :- | -: | -: | :- |\n")
	for _, rule := range r.Rules {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", rule.Side, rule.Rule, rule.Checked, rule.Violations, proxyMDCell(rule.Text))
	}
	if len(r.Violations) > 0 {
		b.WriteString("\n## Violations\n\n```\n")
		for i, v := range r.Violations {
			if i == 200 {
				fmt.Fprintf(&b, "… %d more in report.json\n", len(r.Violations)-200)
				break
			}
			b.WriteString(strings.ReplaceAll(v.Line(), "```", "'''") + "\n")
		}
		b.WriteString("```\n")
	}
	return []byte(b.String()), nil
}

func proxyMDCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}

func proxyStatusList(m map[int]int64) string {
	var parts []string
	for st := 100; st < 600; st++ {
		if n := m[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d×%d", st, n))
		}
	}
	return strings.Join(parts, " ")
}
