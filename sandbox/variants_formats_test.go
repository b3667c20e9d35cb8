package sandbox

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/merchant-harness/mph/sandbox/answer"
)

func init() { addVariantProbes(formatProbes) }

// configTS is the envelope timestamp of GET /cards/config.
func configTS(h *sbx) string {
	return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("timestamp")
}

// cardCreatedAt is a fresh card's createdAt.
func cardCreatedAt(h *sbx) string {
	tok, id := setupCard(h, "2")
	return h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.createdAt")
}

// unknownCard is the 404 of GET /cards/crd_nosuch.
func unknownCard(h *sbx) *resp {
	return h.api("GET", "/cards/crd_nosuch", h.token(alpha, alphaTest), nil).want(404)
}

var formatProbes = map[string]func(h *sbx) bool{
	"timestamps-nanoseconds":      func(h *sbx) bool { return regexp.MustCompile(`\.[0-9]{9}Z$`).MatchString(configTS(h)) },
	"timestamps-offset-hhmm":      func(h *sbx) bool { return strings.HasSuffix(cardCreatedAt(h), ".000+0000") },
	"timestamps-offset-hh":        func(h *sbx) bool { return strings.HasSuffix(cardCreatedAt(h), ".000+00") },
	"timestamps-comma-fraction":   func(h *sbx) bool { return strings.HasSuffix(configTS(h), ":00,000Z") },
	"timestamps-minute-precision": func(h *sbx) bool { return configTS(h) == "2026-03-15T12:00Z" },
	"timestamps-basic-format":     func(h *sbx) bool { return cardCreatedAt(h) == "20260315T120000.000Z" },
	"timestamps-week-date":        func(h *sbx) bool { return configTS(h) == "2026-W11-7T12:00:00.000Z" },
	"timestamps-ordinal-date":     func(h *sbx) bool { return configTS(h) == "2026-074T12:00:00.000Z" },
	"envelope-timestamp-negative-offset": func(h *sbx) bool {
		return configTS(h) == "2026-03-15T07:00:00.000-05:00" && strings.HasSuffix(cardCreatedAt(h), "Z")
	},
	"envelope-timestamp-no-designator": func(h *sbx) bool {
		return configTS(h) == "2026-03-15T12:00:00.000" && strings.HasSuffix(cardCreatedAt(h), "Z")
	},
	"numbers-integers-with-fraction": func(h *sbx) bool {
		return tokenAnswer(h).num("data.expiresIn") == "900.0" && unknownCard(h).num("statusCode") == "404.0"
	},
	"numbers-exponent": func(h *sbx) bool {
		cfg := h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200)
		return tokenAnswer(h).num("data.expiresIn") == "9e2" && cfg.num("data.withdrawalFee") == "5e-2" && cfg.num("data.vaultBalance") == "1e4"
	},
	"amounts-four-decimals": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).num("data.creationFee") == "1.0000"
	},
	"reason-phrases-rfc9110": func(h *sbx) bool {
		big := `{"pad":"` + strings.Repeat("x", answer.MaxBody) + `"}`
		return h.api("POST", "/cards", h.token(alpha, alphaTest), big).want(413).s("error") == "Content Too Large"
	},
	"reason-phrases-lower-case":    func(h *sbx) bool { return unknownCard(h).s("error") == "not found" },
	"reason-phrases-sentence-case": func(h *sbx) bool { return unknownCard(h).s("error") == "Not found" },
	"masked-pan-grouped-dashes": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return regexp.MustCompile(`^[0-9]{4}-[0-9]{2}XX-XXXX-[0-9]{4}$`).MatchString(h.api("GET", "/cards/"+id, tok, nil).want(200).s("data.maskedPan"))
	},
	"content-type-json-no-charset": func(h *sbx) bool { return configCT(h) == "application/json" },
	"content-type-charset-upper-case": func(h *sbx) bool {
		return configCT(h) == "application/json;charset=UTF-8"
	},
	"content-type-problem-json-errors": func(h *sbx) bool {
		return unknownCard(h).hdr.Get("Content-Type") == "application/problem+json" && strings.HasPrefix(configCT(h), "application/json")
	},
	"content-type-vendor-json": func(h *sbx) bool { return configCT(h) == "application/vnd.merchant.v1+json" },
	"envelope-path-below-base": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("path") == "/cards/config"
	},
	"envelope-path-route-template": func(h *sbx) bool {
		tok, id := setupCard(h, "2")
		return h.api("GET", "/cards/"+id+"/secure", tok, nil).want(200).s("path") == h.s.base+"/cards/:id/secure"
	},
	"base-path-behind-prefix": func(h *sbx) bool {
		return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).s("path") == "/payments/v1/merchant/cards/config"
	},
}

func tokenAnswer(h *sbx) *resp {
	return h.api("POST", "/auth/token", "", map[string]string{"merchantId": alpha, "secretKey": alphaTest}).want(200)
}

func configCT(h *sbx) string {
	return h.api("GET", "/cards/config", h.token(alpha, alphaTest), nil).want(200).hdr.Get("Content-Type")
}

// isNumber reports whether v decoded as a JSON number.
func isNumber(v any) bool {
	_, ok := v.(json.Number)
	return ok
}
