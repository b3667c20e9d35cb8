package proxy

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Report is the account of one proxy session, written on exit.
type Report struct {
	Tool        string    `json:"tool"`
	Upstream    string    `json:"upstream"`
	Listen      string    `json:"listen"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	Interrupted bool      `json:"interrupted"`
	InProgress  bool      `json:"inProgress"` // an interim report of a running session
	FailOn      string    `json:"failOn"`     // server, client, any or none
	Failed      bool      `json:"failed"`     // violations on the --fail-on side
	Snapshot
}

// NewReport builds the report of a session from the proxy's tally.
func (p *Proxy) NewReport(listen, failOn string, started, ended time.Time, interrupted bool) Report {
	s := p.tally.Snapshot()
	r := Report{
		Tool: "mph proxy", Upstream: p.opts.Upstream, Listen: listen,
		Started: started, Ended: ended, Interrupted: interrupted, FailOn: failOn, Snapshot: s,
	}
	r.Failed = Failing(s, failOn)
	return r
}

// Failing reports whether a snapshot has violations on the --fail-on side.
func Failing(s Snapshot, failOn string) bool {
	switch failOn {
	case "server":
		return s.Server > 0
	case "client":
		return s.Client > 0
	case "none":
		return false
	}
	return s.Server+s.Client > 0
}

// Paths of the written reports.
type Paths struct{ JUnit, JSON, HTML, Markdown string }

// WriteAll writes junit.xml, report.json, report.html and report.md into dir.
func WriteAll(dir string, r Report) (Paths, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Paths{}, err
	}
	p := Paths{
		JUnit: filepath.Join(dir, "junit.xml"), JSON: filepath.Join(dir, "report.json"),
		HTML: filepath.Join(dir, "report.html"), Markdown: filepath.Join(dir, "report.md"),
	}
	writers := []struct {
		path string
		f    func(Report) ([]byte, error)
	}{{p.JUnit, JUnit}, {p.JSON, JSON}, {p.HTML, HTML}, {p.Markdown, Markdown}}
	for _, w := range writers {
		b, err := w.f(r)
		if err != nil {
			return p, err
		}
		if err := os.WriteFile(w.path, b, 0o644); err != nil {
			return p, err
		}
	}
	return p, nil
}

// JSON renders the report as indented JSON.
func JSON(r Report) ([]byte, error) { return json.MarshalIndent(r, "", "  ") }

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// maxCaseLines bounds the violation lines quoted in one JUnit case.
const maxCaseLines = 20

// JUnit renders one test suite per side and one case per rule seen.
func JUnit(r Report) ([]byte, error) {
	all := junitSuites{Name: "mph proxy", Time: fmt.Sprintf("%.3f", r.Ended.Sub(r.Started).Seconds())}
	for _, side := range []Side{Server, Client} {
		s := junitSuite{Name: "mph proxy " + string(side) + " side", Timestamp: r.Started.UTC().Format(time.RFC3339)}
		s.Properties = []junitProperty{{"upstream", r.Upstream}, {"interrupted", fmt.Sprint(r.Interrupted)}}
		for _, rule := range r.Rules {
			if rule.Side != side {
				continue
			}
			c := junitCase{Name: rule.Rule + ": " + rule.Text, Classname: "mph.proxy." + string(side),
				SystemOut: fmt.Sprintf("checked %d time(s)", rule.Checked)}
			if rule.Violations > 0 {
				c.Failure = &junitFailure{Type: "violation",
					Message: fmt.Sprintf("%d violation(s) in %d check(s)", rule.Violations, rule.Checked),
					Text:    strings.Join(violationLines(r.Violations, side, rule.Rule, maxCaseLines), "\n")}
				s.Failures++
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		s.SystemOut = endpointTable(r.Endpoints)
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

func violationLines(vs []Violation, side Side, rule string, n int) []string {
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

func endpointTable(es []EndpointStat) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-44s %9s %7s %7s\n", "endpoint", "exchanges", "server", "client")
	for _, e := range es {
		fmt.Fprintf(&b, "%-44s %9d %7d %7d\n", e.Endpoint, e.Exchanges, e.ServerViolations, e.ClientViolations)
	}
	return b.String()
}

// Markdown renders the report for a pull request or a wiki page.
func Markdown(r Report) ([]byte, error) {
	var b strings.Builder
	verdict := "PASSED"
	if r.Failed {
		verdict = "FAILED"
	}
	fmt.Fprintf(&b, "# mph proxy report: %s\n\n", verdict)
	fmt.Fprintf(&b, "Upstream `%s`, %s to %s", mdCell(r.Upstream), r.Started.UTC().Format(time.RFC3339), r.Ended.UTC().Format(time.RFC3339))
	if r.Interrupted {
		b.WriteString(" (interrupted)")
	}
	if r.InProgress {
		b.WriteString(" (in progress)")
	}
	fmt.Fprintf(&b, ", fail on: %s.\n\n", r.FailOn)
	fmt.Fprintf(&b, "%d exchanges: %d server-side and %d client-side violations; %d outside the merchant root, %d to no documented endpoint, %d with a body over the inspection cap, %d upstream errors.\n\n",
		r.Exchanges, r.Server, r.Client, r.NotAPI, r.Unknown, r.OverCap, r.UpstreamErrors)
	if r.CheckErrors > 0 {
		fmt.Fprintf(&b, "**%d exchanges could not be checked (internal error of the proxy).**\n\n", r.CheckErrors)
	}
	b.WriteString("## Endpoints\n\n| endpoint | exchanges | statuses | server violations | client violations |\n| :- | -: | :- | -: | -: |\n")
	for _, e := range r.Endpoints {
		fmt.Fprintf(&b, "| `%s` | %d | %s | %d | %d |\n", e.Endpoint, e.Exchanges, statusList(e.Statuses), e.ServerViolations, e.ClientViolations)
	}
	if len(r.Clients) > 0 {
		b.WriteString("\n## Clients\n\n| client | exchanges | client violations |\n| :- | -: | -: |\n")
		for _, c := range r.Clients {
			fmt.Fprintf(&b, "| `%s` | %d | %d |\n", mdCell(c.Client), c.Exchanges, c.ClientViolations)
		}
	}
	b.WriteString("\n## Rules\n\n| side | rule | checked | violations | requirement |\n| :- | :- | -: | -: | :- |\n")
	for _, rule := range r.Rules {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s |\n", rule.Side, rule.Rule, rule.Checked, rule.Violations, mdCell(rule.Text))
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

func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
}

func statusList(m map[int]int64) string {
	var parts []string
	for st := 100; st < 600; st++ {
		if n := m[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d×%d", st, n))
		}
	}
	return strings.Join(parts, " ")
}
