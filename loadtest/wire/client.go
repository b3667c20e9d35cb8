// Package wire is the load attack's HTTP client: its own HTTP/1.1
// connections for the common case (request writer, answer reader,
// connection pool) and httpclient's load client for the rest. The policy
// (dial and TLS settings, body cap, redirect rule) is httpclient's.
package wire

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Client sends the load generator's requests. Plain HTTP/1.1 with
// keep-alive and no proxy, redirect-following or connection cap (the
// default of `mph load`) goes over connections the client dials itself and
// lends to one worker at a time (conn_pool.go): the request is written and
// the answer read in the worker's own goroutine, without the two goroutines
// and channel hand-offs per connection of net/http's Transport, which were
// the generator's largest cost. Everything else (HTTP/2, h2c, proxies, no
// keep-alive, --max-connections, --follow-redirects, URLs with userinfo)
// goes through httpclient's load client (httpclient.NewLoadClient). Both paths
// obey the same rules: a timeout on the whole exchange (body included), at
// most MaxBody bytes of an answer read, no redirect followed unless
// FollowRedirects (then same-origin only), no Accept-Encoding (answers are
// read as sent).
type Client struct {
	hc      *http.Client
	pool    *connPool // nil: every request goes through hc
	maxBody int64
	proxy   func(*http.Request) (*url.URL, error)
	mu      sync.Mutex
	dests   map[string]*dest // target URL -> parsed
}

// New builds the attack's client from o.
func New(o httpclient.LoadOptions) *Client {
	o = o.Defaults()
	c := &Client{hc: httpclient.NewLoadClient(o), maxBody: o.MaxBody,
		proxy: http.ProxyFromEnvironment, dests: map[string]*dest{}}
	if o.KeepsAlive() && !o.HTTP2 && !o.H2C && !o.FollowRedirects && o.MaxConnections <= 0 {
		c.pool = newConnPool(o)
	}
	return c
}

// Close closes the idle connections of both paths.
func (c *Client) Close() {
	if c.pool != nil {
		c.pool.close()
	}
	c.hc.CloseIdleConnections()
}

// Hit sends t and fills res as vegeta's attacker does: Method, URL, Code,
// Body (at most MaxBody bytes), Headers, BytesIn, BytesOut, Error (the
// transport error, or the status line of a code outside 200..399) and
// Latency (from res.Timestamp to the end of the answer's body). The caller
// stamps Timestamp before (Hit does when it is zero). A body framed by
// Content-Length on the client's own connections is read into slab's
// spare room (or a new slab), which Hit returns: res.Body aliases it, so
// the caller keeps slab's bytes untouched while it uses res. res.Headers
// may be shared with other results: read it, never change it. Safe for
// concurrent use (each caller with its own slab).
func (c *Client) Hit(t *vegeta.Target, res *vegeta.Result, slab []byte) []byte {
	return c.HitOn(nil, t, res, slab)
}

// HitOn is Hit over l's connection when it has one to t's origin (nil: the
// pool's), leaving the connection in l for l's next request.
func (c *Client) HitOn(l *Lane, t *vegeta.Target, res *vegeta.Result, slab []byte) []byte {
	if res.Timestamp.IsZero() {
		res.Timestamp = time.Now()
	}
	slab = c.send(l, t, res, slab)
	end := time.Now() // the one clock reading after the exchange
	l.stamp(end)
	res.Latency = end.Sub(res.Timestamp)
	return slab
}

// send is HitOn but for the time stamps.
func (c *Client) send(l *Lane, t *vegeta.Target, res *vegeta.Result, slab []byte) []byte {
	res.Method, res.URL = t.Method, t.URL
	d, err := l.dest(c, t.URL)
	if err != nil {
		res.Error = err.Error()
		return slab
	}
	res.BytesOut = uint64(len(t.Body))
	if !d.lean {
		c.hitShared(t, res)
		return slab
	}
	var h head
	h, res.Body, slab, err = c.pool.do(l, t, d, res.Timestamp, c.maxBody, slab)
	res.BytesIn = uint64(len(res.Body))
	if err != nil {
		res.Error = err.Error()
		return slab
	}
	res.Code, res.Error, res.Headers = uint16(h.code), h.err, h.f.header
	return slab
}

// hitShared is Hit over the net/http client.
func (c *Client) hitShared(t *vegeta.Target, res *vegeta.Result) {
	resp, body, err := c.doShared(t)
	res.Body, res.BytesIn = body, uint64(len(body))
	if err != nil {
		res.Error = err.Error()
		return
	}
	if res.Code = uint16(resp.StatusCode); res.Code < 200 || res.Code >= 400 {
		res.Error = resp.Status
	}
	res.Headers = resp.Header
}

// maxDests bounds the cache of parsed target URLs.
const maxDests = 4096

// dest parses a target URL once (a run's targets are few) and says
// whether it goes over the client's own connections: plain http or https,
// no userinfo (http.Client turns it into Basic auth) and no proxy from the
// environment for its origin.
func (c *Client) dest(raw string) (*dest, error) {
	c.mu.Lock()
	d, ok := c.dests[raw]
	c.mu.Unlock()
	if ok {
		return d, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	d = &dest{u: u, key: u.Scheme + "://" + u.Host, requestURI: u.RequestURI()}
	if c.pool != nil && u.User == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		p, err := c.proxy(&http.Request{URL: &url.URL{Scheme: u.Scheme, Host: u.Host}})
		d.lean = err == nil && p == nil
	}
	c.mu.Lock()
	if len(c.dests) < maxDests {
		c.dests[raw] = d
	}
	c.mu.Unlock()
	return d, nil
}

// doShared sends t through the http.Client and reads the body as vegeta
// does: at most maxBody bytes kept, the rest drained through the
// transport's cap (a larger body is an error).
func (c *Client) doShared(t *vegeta.Target) (*http.Response, []byte, error) {
	req, err := t.Request() // a copy of the header: http.Client may add to it
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody))
	if err != nil {
		return nil, b, err
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return nil, b, err
	}
	return resp, b, nil
}

// methodTitle is how net/http names a method in its errors ("Get").
func methodTitle(m string) string {
	if m == "" {
		return "Get"
	}
	return m[:1] + strings.ToLower(m[1:])
}
