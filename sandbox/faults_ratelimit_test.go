package sandbox

// Probes of the faults of faults_ratelimit.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"rate-limit-bare-429": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		h.api("GET", "/cards", tok, nil).want(200)
		r := h.api("GET", "/cards", tok, nil).want(429)
		return r.v == nil || !r.has("statusCode")
	},
	// rate limits
	"rate-limit-never": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":0.01,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		h.api("GET", "/cards", tok, nil).want(200)
		return h.api("GET", "/cards", tok, nil).code != 429
	},
	"rate-limit-no-refill": func(h *sbx) bool {
		h.ctl("PUT", "/rate-limits", `{"read":{"rate":20,"burst":1}}`).want(200)
		tok := h.token(alpha, alphaTest)
		refused := false
		for i := 0; i < 20 && !refused; i++ {
			refused = h.api("GET", "/cards", tok, nil).code == 429
		}
		if !refused {
			h.t.Fatal("no 429 at 20 calls per second with a burst of 1")
		}
		h.ctl("POST", "/clock/advance", `{"seconds":1}`).want(200) // twenty tokens' worth of refill
		return h.api("GET", "/cards", tok, nil).code == 429
	},
})
