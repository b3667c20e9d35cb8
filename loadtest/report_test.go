package loadtest

import (
	"encoding/json"
	"testing"

	"github.com/merchant-harness/mph/loadtest/metrics"
)

// summary.json carries generatorBound overall and per endpoint: true when
// any endpoint's open-model latency is largely send lag.
func TestReportGeneratorBound(t *testing.T) {
	lagged := metrics.Summary{Endpoint: "list", Requests: 100, GeneratorBound: true}
	fine := metrics.Summary{Endpoint: "secure", Requests: 100}
	for _, tc := range []struct {
		name string
		eps  []metrics.Summary
		want bool
	}{
		{"one endpoint lagged", []metrics.Summary{fine, lagged}, true},
		{"none lagged", []metrics.Summary{fine}, false},
		{"no endpoints", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(FromOutcome(&Outcome{Summaries: tc.eps}))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				GeneratorBound *bool `json:"generatorBound"`
				Endpoints      []struct {
					Endpoint       string `json:"endpoint"`
					GeneratorBound *bool  `json:"generatorBound"`
				} `json:"endpoints"`
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.GeneratorBound == nil || *m.GeneratorBound != tc.want {
				t.Fatalf("overall generatorBound %v, want %v in %s", m.GeneratorBound, tc.want, b)
			}
			for i, e := range m.Endpoints {
				if e.GeneratorBound == nil || *e.GeneratorBound != tc.eps[i].GeneratorBound {
					t.Errorf("%s: generatorBound %v, want %v", e.Endpoint, e.GeneratorBound, tc.eps[i].GeneratorBound)
				}
			}
		})
	}
}
