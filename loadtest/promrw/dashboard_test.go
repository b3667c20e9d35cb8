package promrw

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite deploy/grafana/mph-load.json")

const dashboardPath = "../../deploy/grafana/mph-load.json"

// The committed dashboard is the generated one: edit the generator, not
// the file.
func TestDashboardCurrent(t *testing.T) {
	b, err := Dashboard()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(dashboardPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(dashboardPath)
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("%s differs from the generated dashboard (go test ./loadtest/promrw -update): %v", dashboardPath, err)
	}
}

// Every panel queries one run by its run_id and only the pushed metrics.
func TestDashboardQueriesTheRun(t *testing.T) {
	b, _ := Dashboard()
	var d struct {
		Panels []struct {
			Targets []Target `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			n++
			if !strings.Contains(tg.Expr, `run_id="$run_id"`) || !strings.Contains(tg.Expr, "mph_load_") {
				t.Errorf("query %q does not select the run's series", tg.Expr)
			}
		}
	}
	if n != len(DashboardTargets()) || n < 8 {
		t.Fatalf("%d queries", n)
	}
}
