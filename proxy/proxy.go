// Package proxy is a transparent, validating reverse proxy for the Merchant
// Payments API v1: QA teams put it between their own clients (end-to-end
// tests, UI tests, integrating applications) and a TEST environment, and it
// checks every exchange against the API document, both ways:
//
//   - server side: the status is one the document lists, the answer is JSON
//     in the endpoint's envelope and schema (schemas/), errors use the error
//     envelope, secure card details only come from /secure, the echoed path
//     is the request path, timestamps are ISO 8601;
//   - client side: bearer tokens on every call but the token exchange,
//     tokens reused and never used after expiry, X-Merchant-Id consistent
//     with the token, Retry-After and backoff after a 429, amounts in whole
//     cents, references unique per order, secret keys only at the token
//     exchange.
//
// Every check cites a requirement ID of requirements/catalog.yaml. The proxy
// never changes traffic: bodies and headers pass as they are (hop-by-hop
// headers are handled by net/http/httputil.ReverseProxy, which also passes
// redirects back to the client instead of following them). Bodies are
// inspected up to a cap and streamed unchecked beyond it; checks run on one
// goroutine off the request path, so the added latency is the copy.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/clock"
	"github.com/merchant-harness/mph/httpclient"
)

// DefaultBodyCap is how much of each body is inspected.
const DefaultBodyCap = 1 << 20

// DefaultMemoryCap bounds the bodies held for inspection at once, whatever
// the number of connections.
const DefaultMemoryCap = 32 << 20

// Options configure a Proxy.
type Options struct {
	// Upstream is the merchant root of the target, e.g.
	// http://127.0.0.1:8080/v1/merchant. Requests keep their path; only the
	// scheme and host change, so clients use the proxy's origin with the same
	// base path.
	Upstream string
	Profile  *api.Profile // "not shown" choices (issuance path, reference fields); nil = default
	Clock    clock.Clock  // nil = real clock
	BodyCap  int          // bytes of each body inspected; 0 = DefaultBodyCap
	// MemoryCap bounds the bytes of all bodies held for inspection at once
	// (0 = DefaultMemoryCap); a body beyond it is passed on uninspected.
	MemoryCap int
	// Timeout bounds the wait for the upstream's response headers (0 =
	// httpclient.DefaultTimeout, as every command's --timeout).
	Timeout time.Duration
	// InsecureTLS skips verification of the upstream's certificate.
	InsecureTLS bool
	// Transport overrides the upstream transport (tests); nil = the
	// harness's transport (httpclient) with bounded dials and header waits.
	Transport http.RoundTripper
	// Log receives one line per violation as it is found (nil = discard).
	Log io.Writer
	// HAR, when set, receives every exchange, redacted, as HAR 1.2.
	HAR io.Writer
	// Observe, when set, is called on the checking goroutine with every
	// exchange that reached an API endpoint (unredacted; for tests and tools
	// that validate traffic further, e.g. against the OpenAPI document).
	Observe func(Exchange)
}

// Exchange is one request and its answer as seen by the proxy.
type Exchange struct {
	Seq            int64
	Start, End     time.Time
	Client         string // remote host
	Method, Path   string
	RawQuery       string
	RequestHeader  http.Header
	RequestBody    []byte // nil when larger than the cap
	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte // nil when larger than the cap
	Endpoint       string // "GET /cards/{id}", "" when not an API endpoint
}

// Proxy is an http.Handler forwarding to the upstream and checking traffic.
type Proxy struct {
	opts  Options
	up    *url.URL
	base  string // merchant root path, e.g. /v1/merchant
	rp    *httputil.ReverseProxy
	clk   clock.Clock
	seq   atomic.Int64
	queue chan *exchange
	done  chan struct{}
	chk   *checker
	tally *Tally
	har   *harWriter
	mem   *memBudget // the captures' bytes (capture.go)

	closeOnce sync.Once
	inflight  sync.WaitGroup
	mu        sync.RWMutex // guards closed against inflight.Add
	closed    bool
}

type ctxKey struct{}

// exchange is the mutable record of one proxied call.
type exchange struct {
	seq        int64
	start, end time.Time
	respAt     time.Time // response headers received from upstream
	client     string
	method     string
	path       string
	rawQuery   string
	reqHeader  http.Header
	req        *capture
	status     int
	respHeader http.Header
	resp       *capture
	upErr      error
}

// New builds a Proxy and starts its checking goroutine; Close stops it.
func New(opts Options) (*Proxy, error) {
	up, err := url.Parse(opts.Upstream)
	if err != nil || (up.Scheme != "http" && up.Scheme != "https") || up.Host == "" {
		return nil, fmt.Errorf("proxy: upstream %q is not an http(s) URL", opts.Upstream)
	}
	if up.User != nil {
		return nil, fmt.Errorf("proxy: upstream URL must not carry credentials")
	}
	base := strings.TrimRight(up.Path, "/")
	if !strings.HasSuffix(base, "/v1/merchant") {
		return nil, fmt.Errorf("proxy: upstream %q must end in /v1/merchant (the merchant root)", opts.Upstream)
	}
	if opts.Profile == nil {
		opts.Profile = api.DefaultProfile()
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.BodyCap <= 0 {
		opts.BodyCap = DefaultBodyCap
	}
	if opts.MemoryCap <= 0 {
		opts.MemoryCap = DefaultMemoryCap
	}
	if opts.Timeout <= 0 {
		opts.Timeout = httpclient.DefaultTimeout
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	p := &Proxy{
		opts: opts, up: up, base: base, clk: opts.Clock,
		queue: make(chan *exchange, 256),
		done:  make(chan struct{}),
		tally: newTally(),
		mem:   &memBudget{max: opts.MemoryCap},
	}
	if opts.HAR != nil {
		p.har = newHARWriter(opts.HAR, up)
	}
	p.chk = newChecker(p)
	p.rp = &httputil.ReverseProxy{
		Rewrite:        p.rewrite,
		Transport:      p.transport(),
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		FlushInterval:  -1, // stream as it comes: never hold back an answer
		// Its own lines (a body copy that broke) go to the log, redacted.
		ErrorLog:   log.New(redactingWriter{opts.Log}, "mph proxy: ", 0),
		BufferPool: copyBuffers, // one 32 KiB copy buffer per request in flight, reused
	}
	go p.run()
	return p, nil
}

func (p *Proxy) transport() http.RoundTripper {
	if p.opts.Transport != nil {
		return p.opts.Transport
	}
	tr := httpclient.NewTransport(httpclient.Options{
		Timeout: p.opts.Timeout, InsecureTLS: p.opts.InsecureTLS, MaxIdleConnsPerHost: 256,
	})
	// Never add Accept-Encoding nor decompress: the client's own
	// negotiation passes as is (the inspected copy is decoded apart).
	tr.DisableCompression = true
	return tr
}

// BasePath is the merchant root the proxy checks under, e.g. /v1/merchant.
func (p *Proxy) BasePath() string { return p.base }

// Upstream is the merchant root the proxy forwards to.
func (p *Proxy) Upstream() string { return p.opts.Upstream }

// Tally returns the running counts (safe to call at any time).
func (p *Proxy) Tally() *Tally { return p.tally }

// ServeHTTP forwards one request and queues the exchange for checking.
// After Close it still forwards, unchecked.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.RLock()
	if p.closed {
		p.mu.RUnlock()
		p.tally.add(func(t *Tally) { t.Unchecked++ })
		p.rp.ServeHTTP(w, r)
		return
	}
	p.inflight.Add(1) // under the read lock: never concurrent with Close's Wait
	p.mu.RUnlock()
	defer p.inflight.Done()
	ex := &exchange{
		seq:       p.seq.Add(1),
		start:     p.clk.Now(),
		client:    remoteHost(r.RemoteAddr),
		method:    r.Method,
		path:      r.URL.Path,
		rawQuery:  r.URL.RawQuery,
		reqHeader: r.Header.Clone(),
		req:       newCapture(p.opts.BodyCap, p.mem),
	}
	var tee *teeBody
	if r.Body != nil && r.Body != http.NoBody {
		tee = &teeBody{rc: r.Body, c: ex.req}
		r.Body = tee
	} else {
		ex.req.eof = true
	}
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, ex)))
	ex.end = p.clk.Now()
	if tee != nil {
		tee.seal()
	}
	p.queue <- ex // open until every exchange counted in inflight is queued
}

func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	pr.Out.URL.Scheme = p.up.Scheme
	pr.Out.URL.Host = p.up.Host
	pr.Out.Host = "" // the upstream's own Host, as a client of it would send
	// ReverseProxy strips the client's X-Forwarded-* before Rewrite; put
	// them back as they came, and add none of its own.
	for _, h := range []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"} {
		if v, ok := pr.In.Header[h]; ok {
			pr.Out.Header[h] = v
		}
	}
}

func (p *Proxy) modifyResponse(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(ctxKey{}).(*exchange)
	if ex == nil {
		return nil
	}
	ex.respAt = p.clk.Now()
	ex.status = resp.StatusCode
	ex.respHeader = resp.Header.Clone()
	ex.resp = newCapture(p.opts.BodyCap, p.mem)
	if resp.Body == nil || resp.Body == http.NoBody {
		ex.resp.eof = true
		return nil
	}
	resp.Body = &teeBody{rc: resp.Body, c: ex.resp}
	return nil
}

func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	if ex, _ := r.Context().Value(ctxKey{}).(*exchange); ex != nil {
		ex.upErr = err
	}
	if errors.Is(err, context.Canceled) {
		return // the client went away
	}
	w.WriteHeader(http.StatusBadGateway)
}

// run checks exchanges in the order they complete.
func (p *Proxy) run() {
	defer close(p.done)
	for ex := range p.queue {
		p.checkSafely(ex)
		ex.req.release()
		ex.resp.release()
	}
}

// checkSafely checks one exchange; a bug in a rule costs that exchange's
// checks (counted and logged), never the proxy or the traffic.
func (p *Proxy) checkSafely(ex *exchange) {
	defer func() {
		if r := recover(); r != nil {
			p.tally.add(func(t *Tally) { t.CheckErrors++ })
			fmt.Fprintf(p.opts.Log, "mph proxy: internal error checking exchange #%d: %s\n", ex.seq, safe(fmt.Sprint(r)))
		}
	}()
	p.chk.check(ex)
}

// Close stops checking new exchanges, waits for those in flight (bounded
// by ctx) and for the checks of every queued one, then finishes the HAR
// document. The handler keeps forwarding after Close, unchecked. Call it
// after the http.Server in front has been shut down.
func (p *Proxy) Close(ctx context.Context) error {
	var err error
	p.closeOnce.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		waited := make(chan struct{})
		go func() { p.inflight.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-ctx.Done():
			// A handler still running would send on the queue: leave it
			// open and the checker running; the HAR stays unfinished.
			err = fmt.Errorf("proxy: requests still in flight: %w", ctx.Err())
			return
		}
		close(p.queue)
		<-p.done
		if p.har != nil {
			err = p.har.close()
		}
	})
	return err
}

// copyBuffers recycles the buffers ReverseProxy copies bodies through.
var copyBuffers = &bufferPool{sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte  { return *b.p.Get().(*[]byte) }
func (b *bufferPool) Put(x []byte) { b.p.Put(&x) }

// redactingWriter redacts and escapes what a library logs about traffic.
type redactingWriter struct{ w io.Writer }

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, safe(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func remoteHost(addr string) string {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return h
}
