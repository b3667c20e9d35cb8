package proxy

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/schemas"
)

// documentedStatuses are the statuses of the document's Errors table.
var documentedStatuses = map[int]bool{200: true, 201: true, 400: true, 401: true, 403: true, 404: true, 409: true, 429: true, 500: true}

// serverRules checks one answer on its own.
func (c *checker) serverRules(x *exCtx) {
	st := x.ex.status
	switch {
	case st >= 200 && st < 300:
		x.verdict(!documentedStatuses[st], session.Server, "ERR-06", "response status",
			"status %d: success is 200 or 201", st)
	default:
		x.verdict(!documentedStatuses[st], session.Server, "ERR-21", "response status",
			"status %d is not a status of the document's Errors table (200, 201, 400, 401, 403, 404, 409, 429, 500)", st)
	}
	if !x.ex.resp.complete() {
		return // streamed unchecked: larger than the cap, or cut short
	}
	if !c.jsonRule(x) {
		if st >= 400 {
			id, schema := errorSchema(x)
			x.fail(session.Server, id, "response body", "error answer %d is not JSON, so not the %s envelope", st, schema)
		}
		return
	}
	if st >= 200 && st < 300 {
		c.schemaRule(x)
		c.secureOnlyRule(x)
	} else if st >= 400 {
		c.errorRule(x)
	}
	c.pathRule(x)
}

// jsonRule: every body is JSON, labelled as JSON (ENV-07). Reports whether
// the body checks can go on.
func (c *checker) jsonRule(x *exCtx) bool {
	body := x.ex.resp.buf
	if len(strings.TrimSpace(string(body))) == 0 {
		x.verdict(x.ex.status != http.StatusNoContent && x.ex.method != http.MethodHead,
			session.Server, "ENV-07", "response body", "empty body: all bodies are JSON")
		return false
	}
	ct := x.ex.respHeader.Get("Content-Type")
	switch {
	case !mediaJSON(ct):
		x.fail(session.Server, "ENV-07", "response header Content-Type", "Content-Type %q is not JSON (all bodies are JSON)", ct)
	case !x.ok:
		x.fail(session.Server, "ENV-07", "response body", "body is not one JSON value: %s", quote(head(body)))
	default:
		x.pass(session.Server, "ENV-07")
	}
	return x.ok
}

func head(b []byte) string {
	if len(b) > 80 {
		return string(b[:80])
	}
	return string(b)
}

// schemaRule validates a success body against the endpoint's schema; each
// violation is attributed to the finest requirement it breaks.
func (c *checker) schemaRule(x *exCtx) {
	covered := map[string]bool{x.ep.Requirement: true}
	switch x.ep.Envelope {
	case api.EnvelopeA:
		covered["ENV-01"], covered["ENV-05"] = true, true
	case api.EnvelopeB:
		covered["ENV-03"], covered["ENV-05"] = true, true
	case api.EnvelopeFlat:
		covered["ENV-04"], covered["ENV-06"] = true, true
	}
	failed := map[string][]string{}
	err := schemas.Validate(x.ep.Schema, x.ex.resp.buf)
	var ve *schemas.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			id := c.attribute(x.ep, v)
			failed[id] = append(failed[id], v.String())
		}
	}
	ids := make([]string, 0, len(failed))
	for id := range failed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		vs := failed[id]
		more := ""
		if len(vs) > 3 {
			more = fmt.Sprintf("; and %d more", len(vs)-3)
			vs = vs[:3]
		}
		x.fail(session.Server, id, "response body ("+x.ep.Schema+")", "%d schema violation(s): %s%s", len(failed[id]), strings.Join(vs, "; "), more)
	}
	for id := range covered {
		if failed[id] == nil {
			x.pass(session.Server, id)
		}
	}
}

// envelopeMembers are the top-level members each envelope defines.
var envelopeMembers = map[string]map[string]string{
	api.EnvelopeA:    {"": "ENV-01", "status": "ENV-01", "data": "ENV-01", "path": "ENV-01", "timestamp": "ENV-05"},
	api.EnvelopeB:    {"": "ENV-03", "success": "ENV-03", "message": "ENV-03", "data": "ENV-03", "timestamp": "ENV-05"},
	api.EnvelopeFlat: {"": "ENV-04", "data": "ENV-04"},
}

// memberRequirement attributes a member's violation to its own requirement.
var memberRequirement = map[string]string{
	"accessToken": "AUTH-02", "tokenType": "AUTH-03", "expiresIn": "AUTH-04", "environment": "AUTH-05", "merchantId": "AUTH-06",
	"cardNumber": "SECURE-04", "pan": "SECURE-05", "cvv": "SECURE-06", "expiryMonth": "SECURE-07", "expiryYear": "SECURE-08", "expirationDate": "SECURE-09",
}

// attribute maps a schema violation to a requirement ID.
func (c *checker) attribute(ep api.Endpoint, v schemas.Violation) string {
	if v.Rule == "json" {
		return "ENV-07"
	}
	toks := strings.Split(strings.TrimPrefix(v.Pointer, "/"), "/")
	last := toks[len(toks)-1]
	if len(toks) == 1 {
		if id, ok := envelopeMembers[ep.Envelope][last]; ok {
			return id
		}
	}
	if id, ok := memberRequirement[last]; ok && ep.Token() == strings.HasPrefix(id, "AUTH") {
		return id
	}
	switch last {
	case "createdAt", "updatedAt":
		return "ENV-06"
	case "maskedPan":
		if ep.Secure() {
			return "SECURE-03"
		}
		return "GET-08"
	}
	return ep.Requirement
}

// secureOnlyRule: secure card details only come from /secure (SECURE-11).
func (c *checker) secureOnlyRule(x *exCtx) {
	if x.ep.Secure() {
		return
	}
	ptr := findMember(x.json, "", func(k string) bool {
		k = strings.ToLower(k)
		return k == "cardnumber" || k == "pan" || k == "cvv"
	})
	x.verdict(ptr != "", session.Server, "SECURE-11", "response body "+ptr,
		"secure card details (%s) in an answer other than GET /cards/{id}/secure", ptr)
}

// findMember returns the JSON pointer of the first member whose name
// matches, depth first in sorted key order, or "".
func findMember(v any, at string, match func(string) bool) string {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if match(k) {
				return at + "/" + k
			}
			if p := findMember(t[k], at+"/"+k, match); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range t {
			if p := findMember(e, fmt.Sprintf("%s/%d", at, i), match); p != "" {
				return p
			}
		}
	}
	return ""
}

// errorRule: error answers use the error envelope (ERR-01), with statusCode
// the HTTP status (ERR-02) and error its reason phrase (ERR-03); a 429 all
// of that (RATE-02); the gift order 404 may be the short form (ERR-05).
func (c *checker) errorRule(x *exCtx) {
	st := x.ex.status
	id, schema := errorSchema(x)
	var problems []string
	var ve *schemas.ValidationError
	if err := schemas.Validate(schema, x.ex.resp.buf); errors.As(err, &ve) {
		for _, v := range ve.Violations {
			problems = append(problems, v.String())
		}
	}
	x.verdict(len(problems) > 0, session.Server, id, "response body ("+schema+")",
		"error answer %d: %s", st, strings.Join(first(problems, 3), "; "))

	code, hasCode := member(x.json, "statusCode")
	if hasCode {
		bad := !schemas.NumberIs(code, int64(st))
		rid := "ERR-02"
		if id == "RATE-02" {
			rid = id
		}
		x.verdict(bad, session.Server, rid, "response body /statusCode", "statusCode %s is not the HTTP status %d", quote(code), st)
	}
	if reason, ok := member(x.json, "error"); ok {
		s, _ := reason.(string)
		rid := "ERR-03"
		if id == "RATE-02" {
			rid = id
		}
		x.verdict(!api.IsReasonPhrase(st, s), session.Server, rid, "response body /error",
			"error %s is not a reason phrase of %d (%s)", quote(reason), st, strings.Join(api.ReasonPhrases(st), ", "))
	}
}

// errorSchema names the rule and schema of an error answer.
func errorSchema(x *exCtx) (id, schema string) {
	switch {
	case x.ex.status == http.StatusTooManyRequests:
		return "RATE-02", schemas.ErrorEnvelope
	case x.ex.status == http.StatusNotFound && strings.HasPrefix(x.ep.Template, "/gift-cards/") && strings.HasSuffix(x.ep.Template, "/{reference}"):
		return "ERR-05", schemas.GiftNotFound
	}
	return "ERR-01", schemas.ErrorEnvelope
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
	}
	return s
}

// echoCandidates are the readings of an echoed path: as sent or unescaped,
// with or without an echoed query string.
func echoCandidates(echo string) []string {
	out := []string{echo}
	if u := unescapePath(echo); u != echo {
		out = append(out, u)
	}
	for _, c := range out[:len(out):len(out)] {
		if p, _, ok := strings.Cut(c, "?"); ok {
			out = append(out, p)
		}
	}
	return out
}

// versionRoots are the echoed path prefixes the document shows (Versioning 2).
var versionRoots = []string{"/api/v1/merchant", "/v1/merchant"}

// pathRule: an echoed `path` is the request path (ENV-08) under one of the
// shown roots (VER-03). The value is informational: either root is
// accepted, and a query string echoed with it is ignored.
func (c *checker) pathRule(x *exCtx) {
	if x.ex.status < 400 && x.ep.Envelope != api.EnvelopeA {
		return // only Envelope A and the error envelope carry the request path
	}
	raw, ok := member(x.json, "path")
	if !ok {
		return // its absence is the schema rule's business
	}
	echo, isStr := raw.(string)
	if !isStr {
		return
	}
	rooted, same := false, false
	for _, cand := range echoCandidates(echo) {
		for _, root := range versionRoots {
			if cand != root && !strings.HasPrefix(cand, root+"/") {
				continue
			}
			rooted = true
			rest := strings.TrimRight(strings.TrimPrefix(cand, root), "/")
			same = same || rest == strings.TrimRight(x.rel, "/")
		}
	}
	x.verdict(!rooted, session.Server, "VER-03", "response body /path",
		"echoed path %s begins with neither /api/v1/merchant nor /v1/merchant", quote(echo))
	if rooted {
		x.verdict(!same, session.Server, "ENV-08", "response body /path",
			"echoed path %s is not the request path %s", quote(echo), quote(x.ex.path))
	}
}
