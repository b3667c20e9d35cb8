package rewrite

import (
	"net/url"
	"strings"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// rewriteSimulation applies the simulation answer settings.
func (s *Rewriter) rewriteSimulation(x map[string]any) {
	v := &s.variants
	if r, ok := x["skip_reason"].(string); ok && v.On(variant.SkipReasonSentences) {
		switch {
		case r == "no_webhook_url_configured":
			x["skip_reason"] = "No webhook URL is configured for this merchant"
		case strings.HasPrefix(r, "delivery_failed: HTTP "):
			x["skip_reason"] = "The receiver answered HTTP " + strings.TrimPrefix(r, "delivery_failed: HTTP ")
		case strings.HasPrefix(r, "delivery_failed: "):
			x["skip_reason"] = "The delivery failed: " + strings.TrimPrefix(r, "delivery_failed: ")
		}
	}
	if v.On(variant.SkipReasonAbsent) && x["dispatched"] == true {
		delete(x, "skip_reason")
	}
	switch u, _ := x["callback_url"].(string); {
	case v.On(variant.CallbackNull) && u == "":
		x["callback_url"] = nil
	case v.On(variant.CallbackNormalised) && u != "":
		x["callback_url"] = normaliseURL(u)
	}
}

// rewriteEnvelopeB applies the Envelope B settings of simulation and
// contact answers.
func (s *Rewriter) rewriteEnvelopeB(rest string, top map[string]any) {
	d, _ := top["data"].(map[string]any)
	if d == nil {
		return
	}
	switch {
	case strings.HasSuffix(rest, "/simulate-webhook") && s.variants.On(variant.SimSuccessMirrors):
		top["success"] = d["dispatched"] == true
	case strings.HasSuffix(rest, "/contact") && s.variants.On(variant.ContactQueued):
		d["success"], d["message"] = false, "Update queued with the card provider"
	}
}

// normaliseURL is u as RFC 3986 normalisation writes it: scheme and host in
// lower case, the default port dropped, an empty path as /.
func normaliseURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	if (p.Scheme == "http" && p.Port() == "80") || (p.Scheme == "https" && p.Port() == "443") {
		p.Host = p.Hostname()
	}
	if p.Path == "" {
		p.Path = "/"
	}
	return p.String()
}
