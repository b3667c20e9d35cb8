package loadtest

import (
	"context"
	"net/http"
	"strings"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/schemas"
)

// EPList is the card list, GET /cards.
const EPList = "list"

var endpointList = Endpoint{Name: EPList, Method: http.MethodGet, Path: "/cards", Status: http.StatusOK, Schema: schemas.CardListResponse}

func init() {
	Register(ScenarioDef{
		Name:      "list",
		Summary:   "GET /cards?limit=20 (--list-query) with the shared bearer token",
		Setup:     "a token exchange",
		Endpoints: []Endpoint{endpointList},
		Prepare: func(ctx context.Context, s *Scenario, o ScenarioOptions) (Generator, error) {
			src, err := s.tokens(ctx)
			if err != nil {
				return nil, err
			}
			u := s.base + endpointList.Path + "?" + strings.TrimPrefix(o.ListQuery, "?")
			return func(tg *vegeta.Target) error {
				*tg = vegeta.Target{Method: http.MethodGet, URL: u, Header: src.Header()}
				return nil
			}, nil
		},
	})
}
