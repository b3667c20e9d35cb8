package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/proxy/session"
	"github.com/merchant-harness/mph/redact"
)

// checker runs every rule on each exchange, on one goroutine: the stream
// state of the client rules needs no locking.
type checker struct {
	p      *Proxy
	router api.Router
	st     *streamState
}

func newChecker(p *Proxy) *checker {
	return &checker{p: p, router: api.NewRouter(api.Endpoints(p.opts.Profile)), st: newStreamState(p.opts.Profile)}
}

// learnSecrets hands the redaction every secret the exchange carries (the
// client's secret key at its token exchange, Basic credentials, tokens, the
// admin key, voucher codes and PINs in answers) before a byte about it is
// written, to the HAR, the log or a report: the proxy was configured with
// none of its clients' secrets, and an echo of one in another encoding
// later is masked by value.
func learnSecrets(ex *exchange) {
	redact.LearnHeader(ex.reqHeader)
	redact.LearnHeader(ex.respHeader)
	redact.LearnBody([]byte(ex.rawQuery))
	if ex.req != nil && ex.req.complete() {
		redact.LearnBody(ex.req.buf)
	}
	if ex.resp != nil && ex.resp.complete() {
		redact.LearnBody(ex.resp.buf)
	}
}

// exCtx is one exchange being checked.
type exCtx struct {
	c    *checker
	ex   *exchange
	ep   api.Endpoint
	rel  string // path below the merchant root, e.g. /cards/crd_1
	json any    // parsed response body (nil when absent or not JSON)
	ok   bool   // response body parsed as JSON
}

func (c *checker) check(ex *exchange) {
	t := c.p.tally
	t.add(func(t *Tally) { t.Exchanges++ })
	if ex.resp != nil {
		ex.resp.decodeContent(ex.respHeader.Get("Content-Encoding"))
	}
	learnSecrets(ex)
	rel, api := c.rel(ex.path)
	if !api {
		t.add(func(t *Tally) { t.NotAPI++ })
		c.p.har.write(ex, "")
		return
	}
	ep, known := c.router.Match(ex.method, rel)
	if !known {
		t.add(func(t *Tally) { t.Unknown++ })
		c.p.har.write(ex, "")
		return
	}
	x := &exCtx{c: c, ex: ex, ep: ep, rel: rel}
	host := safe(ex.client)
	t.add(func(t *Tally) {
		t.client(host).Exchanges++
		e := t.endpoint(ep.Key())
		e.Exchanges++
		if ex.upErr == nil {
			e.Statuses[ex.status]++
		}
		switch {
		case ex.req.starved || ex.resp != nil && ex.resp.starved:
			t.OverMemory++
		case ex.req.over || ex.resp != nil && ex.resp.over:
			t.OverCap++
		}
		if ex.resp != nil && ex.resp.undecodable {
			t.Undecodable++
		}
	})
	c.p.har.write(ex, ep.Key())
	if ex.upErr == nil && ex.resp != nil && ex.resp.complete() && len(bytes.TrimSpace(ex.resp.buf)) > 0 {
		x.ok = decodeJSON(ex.resp.buf, &x.json) == nil
	}
	c.clientRules(x)
	if ex.upErr != nil || ex.resp == nil {
		t.add(func(t *Tally) { t.UpstreamErrors++ })
		if ex.upErr != nil {
			fmt.Fprintf(c.p.opts.Log, "%s UPSTREAM ERROR %q #%d: %s\n", ex.start.UTC().Format("2006-01-02T15:04:05.000Z"), ep.Key(), ex.seq, safe(ex.upErr.Error()))
		}
		return
	}
	c.serverRules(x)
	c.answerRules(x)
	c.streamRules(x)
	if c.p.opts.Observe != nil {
		c.p.opts.Observe(x.public())
	}
}

// rel returns the path below the merchant root, and whether it is under it.
func (c *checker) rel(p string) (string, bool) {
	if p == c.p.base {
		return "/", true
	}
	if !strings.HasPrefix(p, c.p.base+"/") {
		return "", false
	}
	return strings.TrimPrefix(p, c.p.base), true
}

func (x *exCtx) public() Exchange {
	ex := x.ex
	out := Exchange{
		Seq: ex.seq, Start: ex.start, End: ex.end, Client: ex.client,
		Method: ex.method, Path: ex.path, RawQuery: ex.rawQuery,
		RequestHeader: ex.reqHeader, Status: ex.status, ResponseHeader: ex.respHeader,
		Endpoint: x.ep.Key(),
	}
	if ex.req.complete() {
		out.RequestBody = bytes.Clone(ex.req.buf)
	}
	if ex.resp != nil && ex.resp.complete() {
		out.ResponseBody = bytes.Clone(ex.resp.buf)
	}
	return out
}

// pass counts a rule checked without a violation.
func (x *exCtx) pass(side session.Side, id string) { x.c.p.tally.checked(side, id) }

// fail records and logs a violation; what and where may contain target
// bytes: they are redacted and escaped here.
func (x *exCtx) fail(side session.Side, id, where, format string, a ...any) {
	v := session.Violation{
		Exchange: x.ex.seq, Time: x.ex.start, Side: side, Rule: id,
		Endpoint: x.ep.Key(), What: safe(fmt.Sprintf(format, a...)), Where: safe(where),
		Client: safe(x.ex.client),
	}
	x.c.p.tally.violation(v)
	fmt.Fprintln(x.c.p.opts.Log, v.Line())
}

// verdict counts a check: a violation when bad, a pass otherwise.
func (x *exCtx) verdict(bad bool, side session.Side, id, where, format string, a ...any) {
	if bad {
		x.fail(side, id, where, format, a...)
		return
	}
	x.pass(side, id)
}

// maxText bounds a target-derived text in a report.
const maxText = 400

// safe redacts secrets and escapes control and formatting characters (so
// target bytes cannot move a terminal's cursor or reorder a line; newlines
// too, so a violation stays one line), then truncates. Redaction comes
// first so that a cut never exposes a secret.
func safe(s string) string {
	s = strings.ReplaceAll(redact.Safe(s), "\n", `\n`)
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// quote renders a target value for a message: JSON-quoted, bounded.
func quote(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	if len(b) > 120 {
		return string(b[:117]) + "…"
	}
	return string(b)
}

func decodeJSON(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data")
	}
	return nil
}

// mediaJSON reports whether a Content-Type names JSON.
func mediaJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// member returns obj[key] when v is an object.
func member(v any, key string) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	e, ok := m[key]
	return e, ok
}

func unescapePath(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}
