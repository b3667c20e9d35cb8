package loadreport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/redact"
)

func TestReportWriteRedactsAndEscapes(t *testing.T) {
	key := "LoadKeyNoPrefix-8u7y6t5r"
	redact.Register(key)
	r := &summary.Report{
		Tool: "mph load", Kind: "run", Scenario: "list",
		Target: "http://ops:UrlPw-123456@127.0.0.1:1/v1/merchant",
		Notes:  []string{"target said \x1b[2K\r✔ all specs passed"},
		Endpoints: []metrics.Summary{{Endpoint: "list", Requests: 3, Errors: map[string]uint64{
			"401 bad key " + key:       1,
			"401 bad key " + key + "x": 1,
			"Get \x1b]0;title\x07 EOF": 1,
		}}},
	}
	dir := t.TempDir()
	if err := Write(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.json", "summary.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{key, "UrlPw-123456", "\x1b", "\r", `\u001b`, "\x07"} {
			if strings.Contains(string(b), leak) {
				t.Errorf("%s carries %q", name, leak)
			}
		}
	}
	if n := r.Endpoints[0].Errors["401 bad key ***"]; n != 1 {
		t.Errorf("error counts after redaction: %v", r.Endpoints[0].Errors)
	}
}
