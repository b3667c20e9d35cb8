package sandbox

import (
	"strings"
	"time"
)

// Probes of the faults of faults_auth.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"token-no-environment": func(h *sbx) bool {
		return !h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`).want(200).has("data.environment")
	},
	"auth-expired-token-accepted": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.fake.Advance(901e9)
		return h.api("GET", "/cards", tok, nil).code == 200
	},
	// authentication
	"auth-forged-signature-accepted": func(h *sbx) bool {
		parts := strings.Split(h.token(alpha, alphaTest), ".")
		sig := []byte(parts[2])
		if sig[0] == 'A' {
			sig[0] = 'B'
		} else {
			sig[0] = 'A'
		}
		return h.api("GET", "/cards", parts[0]+"."+parts[1]+"."+string(sig), nil).code == 200
	},
	"auth-ignore-merchant-header": func(h *sbx) bool {
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil, "X-Merchant-Id: "+bravo).code == 200
	},
	"auth-ip-whitelist-per-call-skipped": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.ctl("PUT", "/merchants/"+alpha+"/ip-whitelist", `{"environment":"TEST","ips":["203.0.113.10"]}`).want(200)
		return h.api("GET", "/cards", tok, nil).code == 200
	},
	"auth-kyb-check-skipped": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(bravo, bravoLive), nil).code == 200
	},
	"auth-quotes-without-token": func(h *sbx) bool {
		return h.api("GET", "/betting/quote?amount=5000", "", nil).code == 200
	},
	"auth-wrong-secret-accepted": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": "sk_test_wrong"}).code == 200
	},
	"auth-missing-header-served": func(h *sbx) bool {
		return h.api("GET", "/cards", "", nil).code == 200
	},
	"token-bearer-prefixed": func(h *sbx) bool {
		return strings.HasPrefix(h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`).want(200).s("data.accessToken"), "Bearer ")
	},
	"token-type-lowercase": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`).want(200).s("data.tokenType") != "Bearer"
	},
	"token-expires-in-millis": func(h *sbx) bool {
		return h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`).want(200).num("data.expiresIn") != "900"
	},
	"token-no-merchant-id": func(h *sbx) bool {
		return !h.api("POST", "/auth/token", "", `{"merchantId":"`+alpha+`","secretKey":"`+alphaTest+`"}`).want(200).has("data.merchantId")
	},
	"token-issued-once": func(h *sbx) bool {
		h.token(alpha, alphaTest)
		h.fake.Advance(901 * time.Second)
		return h.api("GET", "/cards", h.token(alpha, alphaTest), nil).code != 200
	},
	"token-lifetime-600s": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		h.fake.Advance(14 * time.Minute)
		return h.api("GET", "/cards", tok, nil).code != 200
	},
})
