package loadtest

import (
	"context"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/loadtest/threshold"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/schemas"
)

// A scenario is one file: this init is all a new scenario needs (here one
// reading GET /cards/config with the shared token), with no edit anywhere
// else. TestScenarioIsOneFile runs it.
func init() {
	config := Endpoint{Name: "config", Method: http.MethodGet, Path: "/cards/config", Status: http.StatusOK, Schema: schemas.ConfigResponse}
	Register(ScenarioDef{
		Name:      "example-config",
		Summary:   "GET /cards/config with the shared bearer token (a test's example)",
		Setup:     "a token exchange",
		Endpoints: []Endpoint{config},
		Prepare: func(ctx context.Context, s *Scenario, _ ScenarioOptions) (Generator, error) {
			src, err := s.tokens(ctx)
			if err != nil {
				return nil, err
			}
			u := s.base + config.Path
			return func(tg *vegeta.Target) error {
				*tg = vegeta.Target{Method: config.Method, URL: u, Header: src.Header()}
				return nil
			}, nil
		},
	})
}

// The example scenario prepares and runs against the embedded sandbox: its
// results are classified under its own endpoint, a threshold on that
// endpoint is measured, and Close stops its token source.
func TestScenarioIsOneFile(t *testing.T) {
	tg := startSandbox(t, sandbox.Options{DisableRateLimits: true})
	s, err := Prepare(context.Background(), tg, ScenarioOptions{Name: "example-config"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if len(s.Endpoints) != 1 || s.Endpoints[0] != "config" || s.Tokens == nil {
		t.Fatalf("prepared endpoints %v, tokens %v", s.Endpoints, s.Tokens)
	}
	th, err := threshold.Parse("config:success>=99%")
	if err != nil {
		t.Fatal(err)
	}
	sch, _ := pacer.Constant(100, 500*time.Millisecond)
	o, err := Run(context.Background(), RunSpec{Scenario: s, Schedule: sch, SchemaSample: 1, Thresholds: []threshold.Threshold{th}})
	if err != nil {
		t.Fatal(err)
	}
	sum, ok := o.Summary("config")
	if !ok || sum.Requests != 50 || sum.SuccessRatio != 1 {
		t.Fatalf("config summary %+v (found %v); all endpoints %+v", sum, ok, o.Summaries)
	}
	if _, other := o.Summary("other"); other {
		t.Error("results classified as other")
	}
	if len(o.Thresholds) != 1 || !o.Thresholds[0].Pass || o.Thresholds[0].Endpoint != "config" {
		t.Fatalf("thresholds %+v", o.Thresholds)
	}
}
