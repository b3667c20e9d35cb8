package controls

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/merchant-harness/mph/sandbox/answer"
	"github.com/merchant-harness/mph/sandbox/ids"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
	"github.com/merchant-harness/mph/sandbox/state"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/wording"
)

type identityJSON struct {
	Instance  string   `json:"instance"`
	BasePath  string   `json:"basePath"`
	Merchants []string `json:"merchants"`
}

// ctlIdentity is GET /_sandbox/identity: which sandbox this is and the
// merchants it serves. It needs no admin key (it holds no secret), so a
// harness can confirm the identity before it sends the key anywhere.
func (s *server) ctlIdentity(rc *answer.Req) {
	rc.JSON(http.StatusOK, identityJSON{Instance: s.Instance, BasePath: s.Base, Merchants: rc.World.MerchantIDs()})
}

type capabilities struct {
	Sandbox      bool     `json:"sandbox"`
	BasePath     string   `json:"basePath"`
	Controls     []string `json:"controls"`
	Environments []string `json:"environments"`
	Faults       []string `json:"faults"`
}

func (s *server) ctlCapabilities(rc *answer.Req) {
	rc.JSON(http.StatusOK, capabilities{
		Sandbox: true, BasePath: s.Base, Controls: Names,
		Environments: []string{"TEST", "LIVE"},
		Faults:       append([]string{}, s.Faults...),
	})
}

type clockJSON struct {
	Now           string `json:"now"`
	OffsetSeconds int64  `json:"offsetSeconds"`
}

func (s *server) clockAnswer(rc *answer.Req) {
	rc.JSON(http.StatusOK, clockJSON{Now: wording.Timestamp(s.Clock.Now()), OffsetSeconds: int64(s.Clock.Offset() / time.Second)})
}

func (s *server) ctlClock(rc *answer.Req) { s.clockAnswer(rc) }

// ctlClockAdvance moves the sandbox clock forward; it never goes back, so
// daily and monthly spend counters stay monotonic.
func (s *server) ctlClockAdvance(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	sec, _ := v.Int("seconds", true, 0, 100*365*86400)
	if rc.Invalid(&v) {
		return
	}
	s.Clock.Advance(time.Duration(sec) * time.Second)
	s.clockAnswer(rc)
}

// ctlReset restores the seed: state, clock offset, latency and the start-up
// rate limits. Tokens stay valid (same signing key, same merchants).
func (s *server) ctlReset(rc *answer.Req) {
	s.Reset()
	rc.JSON(http.StatusOK, map[string]any{"reset": true})
}

// ctlDeliveries lists the delivery log and how many deliveries are in
// flight: a client waiting for a delivery stops once nothing is pending.
func (s *server) ctlDeliveries(rc *answer.Req) {
	rc.JSON(http.StatusOK, deliveriesAnswer{Deliveries: rc.World.DeliveryLog(), Pending: s.Pending.Load()})
}

type deliveriesAnswer struct {
	Deliveries []state.Delivery `json:"deliveries"`
	Pending    int64            `json:"pending"`
}

// merchantOr404 resolves the control's merchant path parameter.
func (s *server) merchantOr404(rc *answer.Req) *state.Merchant {
	m := rc.World.Merchants[rc.ID]
	if m == nil {
		rc.Error(http.StatusNotFound, "Merchant not found")
	}
	return m
}

type webhookJSON struct {
	MerchantID string `json:"merchantId"`
	URL        string `json:"url"`
	Secret     string `json:"secret"`
}

// ctlWebhook sets a merchant's webhook URL and signing secret (both
// environments). An empty url removes it; a missing secret is generated.
func (s *server) ctlWebhook(rc *answer.Req) {
	m := s.merchantOr404(rc)
	if m == nil {
		return
	}
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	u, hasURL := v.OptStr("url", false, 2048)
	if !hasURL {
		if _, present := v.Raw("url"); !present {
			v.Add("url should not be empty")
		}
	}
	if u != "" {
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			v.Add("url must be an absolute http or https URL")
		}
	}
	secret, _ := v.OptStr("secret", false, validate.MaxText)
	if rc.Invalid(&v) {
		return
	}
	if u == "" {
		m.Webhook.Store(nil)
		rc.JSON(http.StatusOK, webhookJSON{MerchantID: m.ID})
		return
	}
	if secret == "" {
		secret = "whsec_" + ids.Hex(16)
	}
	m.Webhook.Store(&state.WebhookConfig{URL: u, Secret: secret})
	rc.JSON(http.StatusOK, webhookJSON{MerchantID: m.ID, URL: u, Secret: secret})
}

// envParam reads ?environment= (default TEST).
func (s *server) envParam(rc *answer.Req, val string, present bool) (state.Env, bool) {
	if !present || val == "" {
		return state.EnvTest, true
	}
	e, ok := state.ParseEnv(val)
	if !ok {
		rc.BadRequest([]string{"environment must be one of the following values: TEST, LIVE"})
	}
	return e, ok
}

func (s *server) ctlBalances(rc *answer.Req) {
	m := s.merchantOr404(rc)
	if m == nil {
		return
	}
	q := rc.R.URL.Query()
	_, present := q["environment"]
	env, ok := s.envParam(rc, q.Get("environment"), present)
	if !ok {
		return
	}
	rc.JSON(http.StatusOK, m.Envs[env].Balances())
}

// ctlSetBalances overwrites the vault and/or NGN balance.
func (s *server) ctlSetBalances(rc *answer.Req) {
	m := s.merchantOr404(rc)
	if m == nil {
		return
	}
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	envS := v.Str("environment", true, validate.MaxShort)
	v.OneOf("environment", envS, "TEST", "LIVE")
	vault, hasVault := v.Amount("vaultBalance", false, 0, false)
	ngn, hasNGN := v.Amount("ngnBalance", false, 0, false)
	if rc.Invalid(&v) {
		return
	}
	env, _ := state.ParseEnv(envS)
	st := m.Envs[env]
	st.Mu.Lock()
	if hasVault {
		st.Vault = int64(vault)
	}
	if hasNGN {
		st.NGN = int64(ngn)
	}
	st.Mu.Unlock()
	rc.JSON(http.StatusOK, st.Balances())
}

type whitelistJSON struct {
	MerchantID  string   `json:"merchantId"`
	Environment string   `json:"environment"`
	IPs         []string `json:"ips"`
}

// ctlWhitelist replaces a merchant environment's IP whitelist; [] removes it.
func (s *server) ctlWhitelist(rc *answer.Req) {
	m := s.merchantOr404(rc)
	if m == nil {
		return
	}
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	envS := v.Str("environment", true, validate.MaxShort)
	v.OneOf("environment", envS, "TEST", "LIVE")
	var ips []string
	if raw, has := v.Raw("ips"); !has {
		v.Add("ips should not be empty")
	} else if err := json.Unmarshal(raw, &ips); err != nil {
		v.Add("ips must be an array of strings")
	}
	if len(ips) > 1000 {
		v.Add("ips must contain no more than 1000 elements")
	}
	addrs := make([]netip.Addr, 0, len(ips))
	for _, ip := range ips {
		a, err := netip.ParseAddr(ip)
		if err != nil {
			v.Add("each value in ips must be an ip address")
			break
		}
		addrs = append(addrs, a.Unmap())
	}
	if rc.Invalid(&v) {
		return
	}
	env, _ := state.ParseEnv(envS)
	st := m.Envs[env]
	st.Whitelist.Store(&addrs)
	rc.JSON(http.StatusOK, whitelistJSON{MerchantID: m.ID, Environment: envS, IPs: ipStrings(addrs)})
}

type holdJSON struct {
	Reference   string `json:"reference"`
	Hold        bool   `json:"hold"`
	Orders      int    `json:"orders"`
	OrderStatus string `json:"orderStatus"`
}

// ctlGiftHold holds (or releases) every gift order with this client
// reference or transactionId, in any merchant and environment.
func (s *server) ctlGiftHold(rc *answer.Req) {
	b, ok := rc.ReadBody()
	if !ok {
		return
	}
	v := validate.Of(b)
	hold, _ := v.Bool("hold", true)
	if rc.Invalid(&v) {
		return
	}
	ans := holdJSON{Reference: rc.ID, Hold: hold}
	for _, id := range rc.World.MerchantIDs() {
		for _, st := range rc.World.Merchants[id].Envs {
			st.Mu.Lock()
			if o := st.FindOrder(rc.ID); o != nil {
				o.Held = hold
				ans.Orders++
				ans.OrderStatus = o.Status
			}
			st.Mu.Unlock()
		}
	}
	if ans.Orders == 0 {
		rc.Error(http.StatusNotFound, "Gift card order with reference '"+rc.ID+"' not found")
		return
	}
	rc.JSON(http.StatusOK, ans)
}

type latencyJSON struct {
	Ms int64 `json:"ms"`
}

func (s *server) ctlLatency(rc *answer.Req) {
	if rc.R.Method == http.MethodPut {
		b, ok := rc.ReadBody()
		if !ok {
			return
		}
		v := validate.Of(b)
		ms, _ := v.Int("ms", true, 0, maxLatency)
		if rc.Invalid(&v) {
			return
		}
		s.Latency.Store(int64(time.Duration(ms) * time.Millisecond))
	}
	rc.JSON(http.StatusOK, latencyJSON{Ms: int64(time.Duration(s.Latency.Load()) / time.Millisecond)})
}

// ctlRateLimits reads or changes the rate limits; groups absent from a PUT
// keep theirs, {"rate":0} disables a group.
func (s *server) ctlRateLimits(rc *answer.Req) {
	if rc.R.Method == http.MethodPut {
		b, ok := rc.ReadBody()
		if !ok {
			return
		}
		v := validate.Of(b)
		cur := s.Limits.Snapshot()
		for g := range b {
			if _, known := ratelimit.GroupOf(g); !known {
				v.Add("unknown rate-limit group " + quoteTrunc(g) + " (token, read, secure, write)")
				continue
			}
			ob, has := v.Object(g)
			if !has {
				if _, present := v.Raw(g); !present {
					v.Add(g + " must be an object")
				}
				continue
			}
			gv := validate.Of(ob)
			rate, _ := gv.Float("rate", true, 0, 1e9)
			burst, _ := gv.Int("burst", false, 0, 1_000_000_000)
			for _, e := range gv.Errs() {
				v.Add(g + "." + e)
			}
			cur[g] = ratelimit.Norm(ratelimit.Limit{Rate: rate, Burst: int(burst)})
		}
		if rc.Invalid(&v) {
			return
		}
		s.Limits.Set(cur)
	}
	rc.JSON(http.StatusOK, s.Limits.Snapshot())
}

func quoteTrunc(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "'" + s + "'"
}

func ipStrings(a []netip.Addr) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = x.String()
	}
	return out
}
