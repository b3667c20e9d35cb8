// Package controls serves the sandbox's test controls under /_sandbox
// (docs/sandbox.md): capabilities and identity, the clock, reset, the
// merchants' webhooks, balances and IP whitelists, the delivery log, gift
// order holds, latency and rate limits, behind the admin key. The card
// transactions' controls are the sandbox's logic, which Host hands in.
package controls

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/state"
)

// Prefix is the controls' path prefix.
const Prefix = "/_sandbox"

// Host is the sandbox the controls act on.
type Host struct {
	Base     string   // the merchant API base path
	Instance string   // the instance id
	AdminKey string   // the key every control but capabilities and identity requires
	Faults   []string // the faults the sandbox runs with
	Clock    *clock.Offset
	Latency  *atomic.Int64 // nanoseconds added to every merchant API answer
	Pending  *atomic.Int64 // webhook deliveries in flight
	Limits   *ratelimit.Limiter
	World    func() *state.World // the current world
	Reset    func()              // back to the seed (POST /reset)
	Out      *answer.Writer
	// Transaction and Settle are the card transactions' controls (the path
	// parameter: the card's or the transaction's id).
	Transaction, Settle func(q *answer.Req)
}

type server struct{ Host }

// New routes every control under Prefix, answering any other path or
// method 404 in the error envelope. Answers are plain JSON.
func New(h Host) *http.ServeMux {
	s := &server{h}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, nil) })
	for _, c := range controlRoutes {
		method, path, _ := strings.Cut(c.pattern, " ")
		mux.HandleFunc(method+" "+Prefix+path, func(w http.ResponseWriter, r *http.Request) {
			if r.Method != method {
				s.serve(w, r, nil)
				return
			}
			s.serve(w, r, &c)
		})
	}
	return mux
}

// control is one test control under /_sandbox.
type control struct {
	pattern string
	h       func(*server, *answer.Req)
	open    bool // served without the admin key
}

var controlRoutes = []control{
	{"GET /capabilities", (*server).ctlCapabilities, true},
	{"GET /identity", (*server).ctlIdentity, true},
	{"GET /clock", (*server).ctlClock, false},
	{"POST /clock/advance", (*server).ctlClockAdvance, false},
	{"POST /reset", (*server).ctlReset, false},
	{"POST /cards/{id}/transactions", (*server).ctlTransaction, false},
	{"POST /transactions/{id}/settle", (*server).ctlSettle, false},
	{"PUT /merchants/{id}/webhook", (*server).ctlWebhook, false},
	{"GET /webhooks/deliveries", (*server).ctlDeliveries, false},
	{"GET /merchants/{id}", (*server).ctlBalances, false},
	{"PUT /merchants/{id}/balances", (*server).ctlSetBalances, false},
	{"PUT /merchants/{id}/ip-whitelist", (*server).ctlWhitelist, false},
	{"PUT /gift-orders/{id}/hold", (*server).ctlGiftHold, false},
	{"GET /latency", (*server).ctlLatency, false},
	{"PUT /latency", (*server).ctlLatency, false},
	{"GET /rate-limits", (*server).ctlRateLimits, false},
	{"PUT /rate-limits", (*server).ctlRateLimits, false},
}

// Names are listed by GET /_sandbox/capabilities.
var Names = []string{
	"clock", "reset", "transactions", "settle", "webhook", "deliveries",
	"balances", "ip-whitelist", "gift-hold", "latency", "rate-limits", "identity",
}

const maxLatency = 60_000 // ms

// serve runs a test control routed to c (nil: no control). Answers
// are plain JSON; errors use the error envelope.
func (s *server) serve(w http.ResponseWriter, r *http.Request, c *control) {
	q := s.Out.Req(w, r, s.Clock.Now())
	q.World = s.World()
	rc := &q
	if c == nil {
		rc.NoRoute()
		return
	}
	rc.ID = r.PathValue("id")
	if !c.open && !s.adminOK(r) {
		rc.Error(http.StatusUnauthorized, "Missing or invalid X-Sandbox-Admin-Key")
		return
	}
	c.h(s, rc)
}

// adminOK checks the test controls' admin key in constant time.
func (s *server) adminOK(r *http.Request) bool {
	k := r.Header.Get("X-Sandbox-Admin-Key")
	return subtle.ConstantTimeCompare([]byte(k), []byte(s.AdminKey)) == 1
}

func (s *server) ctlTransaction(rc *answer.Req) { s.Transaction(rc) }

func (s *server) ctlSettle(rc *answer.Req) { s.Settle(rc) }
