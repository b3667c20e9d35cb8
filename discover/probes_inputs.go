package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/merchant-harness/mph/client"
)

// inputRefusals finds whether the target refuses inputs in a form other
// than the documented one (errors.refuses.*). A refused request changes
// nothing; an accepted one registers a customer or sets a limit on the
// discovery card, which is swept and frozen afterwards. A negative gift
// amount is not tried: accepted, it could move money.
func (p *prober) inputRefusals(ctx context.Context) error {
	checks := []struct {
		key, what string
		send      func() (*client.Response, error)
	}{
		{"errors.refuses.customerCountry", "a registration country of 2 letters (US)", func() (*client.Response, error) {
			return p.registerWith(ctx, "country", "US")
		}},
		{"errors.refuses.customerDateOfBirth", "a registration date of birth as 12/04/1990", func() (*client.Response, error) {
			return p.registerWith(ctx, "dateOfBirth", "12/04/1990")
		}},
		{"errors.refuses.nonJsonContentType", "a JSON body declared text/plain", func() (*client.Response, error) {
			return p.api.Do(ctx, client.Request{Method: http.MethodPatch, Path: "/cards/" + client.Seg(p.card) + "/contact",
				RawBody: []byte(`{"email":"discovery@example.com"}`), ContentType: "text/plain"})
		}},
		{"errors.refuses.badSpendLimit", "a negative transactionLimit", func() (*client.Response, error) {
			return p.api.Put(ctx, "/cards/"+client.Seg(p.card)+"/spend-limits", map[string]any{"transactionLimit": json.Number("-5.00")})
		}},
	}
	for _, c := range checks {
		if p.card == "" || p.names == nil {
			p.undetermined(c.key, "no customer or card to try it with")
			continue
		}
		resp, err := c.send()
		if err != nil {
			return err
		}
		switch {
		case is4xx(resp):
			p.found(c.key, true, fmt.Sprintf("%s was refused with HTTP %d", c.what, resp.Status), "high")
		case ok2xx(resp):
			p.found(c.key, false, fmt.Sprintf("%s was accepted (HTTP %d)", c.what, resp.Status), "high")
		default:
			p.undetermined(c.key, fmt.Sprintf("%s answered HTTP %d", c.what, resp.Status))
		}
	}
	p.undetermined("errors.refuses.negativeGiftAmount", "not tried: an accepted negative purchase could move money")
	return nil
}

// registerWith registers a customer with one logical field's value replaced.
func (p *prober) registerWith(ctx context.Context, logical, value string) (*client.Response, error) {
	vals := customerValues()
	vals[logical] = value
	return p.register(ctx, p.names, vals)
}
