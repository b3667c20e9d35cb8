package report

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/result"
)

// JUnit documents (the subset CI tools read: Jenkins, GitLab, GitHub
// Actions test reporters).
type (
	JUnitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Time     float64      `xml:"time,attr"`
		Suites   []JUnitSuite `xml:"testsuite"`
	}
	JUnitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       float64         `xml:"time,attr"`
		Timestamp  string          `xml:"timestamp,attr"`
		Properties []JUnitProperty `xml:"properties>property"`
		Cases      []JUnitCase     `xml:"testcase"`
		SystemErr  string          `xml:"system-err,omitempty"`
	}
	JUnitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	JUnitCase struct {
		Name       string          `xml:"name,attr"`
		Classname  string          `xml:"classname,attr"`
		Time       float64         `xml:"time,attr"`
		Properties []JUnitProperty `xml:"properties>property,omitempty"`
		Failure    *JUnitProblem   `xml:"failure"`
		Error      *JUnitProblem   `xml:"error"`
		Skipped    *JUnitSkipped   `xml:"skipped"`
		SystemOut  string          `xml:"system-out,omitempty"`
	}
	JUnitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
	JUnitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

// JUnit limits: the last exchanges kept in a failure body and the longest
// line (a body) of each.
const (
	JUnitExchanges = 5
	JUnitMaxLine   = 4096
)

// StripUserinfo removes user:password@ from a URL.
func StripUserinfo(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// JUnit builds the JUnit document of a summary: one test case per selected
// spec, classname conformance.<area>, the spec text as name.
func JUnit(s result.Summary) JUnitSuites {
	ts := JUnitSuite{
		Name: s.Suite, Time: s.Duration.Seconds(), Timestamp: s.Start.UTC().Format("2006-01-02T15:04:05"),
		Properties: []JUnitProperty{
			{"target", StripUserinfo(s.Target)},
			{"run-id", s.RunID},
			{"harness-version", s.Version},
			{"profile", s.Profile},
			{"profile-digest", s.ProfileDigest},
			{"interrupted", fmt.Sprint(s.Interrupted)},
		},
	}
	if s.Filter != "" {
		ts.Properties = append(ts.Properties, JUnitProperty{"selection", s.Filter})
	}
	// The two kinds of skip, counted apart: a no verdict not accepted is an
	// <error type="no-verdict"> (the run exits 3), an accepted one and a
	// not-applicable spec are <skipped>.
	ts.Properties = append(ts.Properties,
		JUnitProperty{"not-applicable", fmt.Sprint(s.Skipped)},
		JUnitProperty{"no-verdict", fmt.Sprint(s.NoVerdict)},
		JUnitProperty{"no-verdict-accepted", fmt.Sprint(s.NoVerdictAccepted)})
	for _, sp := range s.Ordered() {
		ts.Cases = append(ts.Cases, junitCase(sp, &ts))
	}
	ts.Tests = len(ts.Cases)
	if len(s.SuiteErrors) > 0 {
		ts.SystemErr = "suite errors (outside any spec):\n" + strings.Join(s.SuiteErrors, "\n")
	}
	for i := range ts.Properties {
		ts.Properties[i].Value = redact.Text(ts.Properties[i].Value)
	}
	return JUnitSuites{Name: s.Suite, Tests: ts.Tests, Failures: ts.Failures, Errors: ts.Errors, Skipped: ts.Skipped, Time: ts.Time, Suites: []JUnitSuite{ts}}
}

func junitCase(sp result.Spec, ts *JUnitSuite) JUnitCase {
	c := JUnitCase{Name: sp.Text, Classname: "conformance." + orUnknown(sp.Area), Time: sp.Duration.Seconds(),
		Properties: []JUnitProperty{{"spec-id", sp.ID}, {"location", sp.Location}}}
	switch sp.Outcome {
	case result.Failed:
		ts.Failures++
		c.Failure = &JUnitProblem{Message: oneLine(sp.Headline), Type: "failed", Body: failureBody(sp)}
	case result.HarnessError:
		ts.Errors++
		c.Error = &JUnitProblem{Message: oneLine(sp.Headline), Type: string(result.HarnessError), Body: failureBody(sp)}
	case result.NoVerdict:
		msg := oneLine(result.Cut("no verdict: "+sp.Message, result.MaxHeadline))
		c.Properties = append(c.Properties, JUnitProperty{"outcome", string(result.NoVerdict)})
		if sp.Accepted {
			ts.Skipped++
			c.Skipped = &JUnitSkipped{Message: oneLine(result.Cut("no verdict (accepted): "+sp.Message, result.MaxHeadline))}
			break
		}
		ts.Errors++
		c.Error = &JUnitProblem{Message: msg, Type: string(result.NoVerdict), Body: redact.Text(fmt.Sprintf("spec %s (%s)\n\n%s\n", sp.ID, sp.Location, sp.Message))}
	case result.Skipped:
		ts.Skipped++
		c.Properties = append(c.Properties, JUnitProperty{"outcome", "not-applicable"})
		c.Skipped = &JUnitSkipped{Message: oneLine(result.Cut("not applicable: "+sp.Message, result.MaxHeadline))}
	case result.Pending:
		ts.Skipped++
		c.Skipped = &JUnitSkipped{Message: result.Shorten(oneLine(sp.Message), result.MaxHeadline)}
	case result.Waived:
		ts.Skipped++
		c.Skipped = &JUnitSkipped{Message: result.Shorten(oneLine(sp.Note), result.MaxHeadline)}
		c.SystemOut = redact.Text(failureBody(sp))
	case result.Interrupted:
		ts.Skipped++
		c.Skipped = &JUnitSkipped{Message: "interrupted before the spec finished"}
	case result.Passed:
		if sp.Note != "" {
			c.SystemOut = sp.Note
		}
	}
	return c
}

// failureBody is the detail of a failure: spec ID and location, the full
// assertion message and the last exchanges, each line cut to JUnitMaxLine.
func failureBody(sp result.Spec) string {
	assertion, _ := result.SplitExchanges(sp.Message)
	var b strings.Builder
	fmt.Fprintf(&b, "spec %s (%s)\n", sp.ID, sp.Location)
	if sp.Note != "" {
		fmt.Fprintf(&b, "%s\n", sp.Note)
	}
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(assertion))
	if ex := exchangesOf(sp); ex != "" {
		fmt.Fprintf(&b, "\nlast HTTP exchanges (redacted, at most %d, lines cut at %d bytes):\n%s", JUnitExchanges, JUnitMaxLine, result.LastExchanges(ex, JUnitExchanges, JUnitMaxLine))
	}
	return redact.Text(b.String())
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
