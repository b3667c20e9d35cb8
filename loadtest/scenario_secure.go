package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/schemas"
)

// EPSecure is the secure card details, GET /cards/{id}/secure.
const EPSecure = "secure"

var endpointSecure = Endpoint{Name: EPSecure, Method: http.MethodGet, Path: "/cards/{id}/secure", Status: http.StatusOK, Schema: schemas.SecureResponse}

func init() {
	Register(ScenarioDef{
		Name:    "secure",
		Summary: "GET /cards/{id}/secure round-robin over a card pool, with the shared bearer token",
		Setup: "a token exchange; one customer and --pool-size cards (default 20) funded with 1.00 USD each, " +
			"swept back to the vault at teardown (the spend is stated in the report); --card-ids uses existing ACTIVE cards and creates nothing",
		Endpoints: []Endpoint{endpointSecure},
		Prepare:   prepareSecure,
	})
}

// prepareSecure reads the secure details of the given cards in turn, or of
// a pool of cards it creates (and sweeps at teardown when asked).
func prepareSecure(ctx context.Context, s *Scenario, o ScenarioOptions) (Generator, error) {
	src, err := s.tokens(ctx)
	if err != nil {
		return nil, err
	}
	ids := o.CardIDs
	if len(ids) == 0 {
		if err := s.consentToWrite(ctx, "issues and funds cards", "give --card-ids of existing cards so that nothing is written"); err != nil {
			return nil, err
		}
		pool := &cardPool{hc: s.hc, base: s.base, src: src, raMax: s.target.RetryAfterMax, logf: o.Logf}
		if err := pool.create(ctx, s.target, o.PoolSize); err != nil {
			return nil, pool.abandon(ctx, err)
		}
		ids = pool.ids
		s.Notes = append(s.Notes, pool.note())
		if o.Teardown {
			s.onClose(func(ctx context.Context) { pool.sweep(ctx) })
		}
	} else {
		s.Notes = append(s.Notes, fmt.Sprintf("secure: %d card ids given, nothing created", len(ids)))
	}
	s.cardIDs = ids
	urls := make([]string, len(ids))
	for i, id := range ids {
		urls[i] = s.base + strings.Replace(endpointSecure.Path, "{id}", id, 1)
		s.maskURL(urls[i])
	}
	var n atomic.Uint64
	return func(tg *vegeta.Target) error {
		i := n.Add(1)
		*tg = vegeta.Target{Method: http.MethodGet, URL: urls[i%uint64(len(urls))], Header: src.Header()}
		return nil
	}, nil
}
