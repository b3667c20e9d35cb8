package loadtest

import (
	"strings"
	"testing"
)

func TestSummaryHTMLRendersTheSummaryConstructs(t *testing.T) {
	md := "# mph load — secure (run)\n\n- target: `http://h/v1/merchant` (embedded sandbox)\n- **interrupted**: <x>\n\n## Endpoints\n\nLatency is open-model.\n\n| endpoint | p99 |\n| :- | -: |\n| secure | 1.81ms |\n"
	got := summaryHTML(md)
	for _, want := range []string{
		"<li>target: <code>http://h/v1/merchant</code> (embedded sandbox)</li>",
		"<li><b>interrupted</b>: &lt;x&gt;</li>",
		"<h3>Endpoints</h3>",
		"<p>Latency is open-model.</p>",
		"<tr><th>endpoint</th><th>p99</th></tr>",
		"<tr><td>secure</td><td>1.81ms</td></tr>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, bad := range []string{"| :-", "# mph load", "<x>"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q should not survive:\n%s", bad, got)
		}
	}
}
