package loadtest

import (
	"context"
	"net/http"
	"sync/atomic"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/schemas"
)

// EPToken is the token exchange, POST /auth/token.
const EPToken = "token"

var endpointToken = Endpoint{Name: EPToken, Method: http.MethodPost, Path: authtoken.Path, Status: http.StatusOK, Schema: schemas.TokenResponse}

func init() {
	Register(ScenarioDef{
		Name:      "token",
		Summary:   "the token exchange itself, round-robin over the configured credentials (the primary merchant, and the secondary one when configured)",
		Setup:     "none",
		Endpoints: []Endpoint{endpointToken},
		Prepare: func(_ context.Context, s *Scenario, _ ScenarioOptions) (Generator, error) {
			return tokenTargets(s.target, s.base), nil
		},
	})
}

// tokenTargets exchanges the credentials in turn.
func tokenTargets(t *Target, base string) Generator {
	bodies := make([][]byte, len(t.Creds))
	for i, c := range t.Creds {
		bodies[i] = authtoken.Credentials{MerchantID: c.MerchantID, SecretKey: c.SecretKey}.Body()
	}
	hdr := http.Header{"Content-Type": []string{"application/json"}}
	u := base + endpointToken.Path
	var n atomic.Uint64
	return func(tg *vegeta.Target) error {
		i := n.Add(1)
		*tg = vegeta.Target{Method: http.MethodPost, URL: u, Body: bodies[i%uint64(len(bodies))], Header: hdr}
		return nil
	}
}
