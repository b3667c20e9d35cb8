// Package client is the single HTTP client of the conformance suites. Every
// call carries a context and a timeout, is recorded (redacted) on the current
// spec's Recorder, can be rendered as a curl line with $TOKEN in place of the
// token, backs off and retries on 429 (unless raw responses are asked for) and
// authenticates through a per-merchant TokenSource that refreshes tokens at 80%
// of their lifetime and once on a 401 (unless raw auth behaviour is asked for).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/redact"
)

// Defaults of a Client.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultMaxRetries  = 6
	DefaultBackoffBase = 100 * time.Millisecond
	DefaultBackoffCap  = 5 * time.Second
	DefaultMaxWait     = 30 * time.Second
	// DefaultMaxBody is the most read of one answer body; a larger body is
	// an error stating so (the answer cannot be judged whole).
	DefaultMaxBody = 1 << 20
)

// Options configure a Client.
type Options struct {
	// BaseURL is the merchant root, e.g. http://127.0.0.1:8080/v1/merchant.
	BaseURL string
	// HTTP is the transport; nil means a client from httpclient (no
	// redirects followed).
	HTTP *http.Client
	// Timeout bounds every single attempt (default DefaultTimeout).
	Timeout time.Duration
	// Tokens authenticates requests; nil sends no Authorization header.
	Tokens *TokenSource
	// Recorder receives every exchange; it is looked up at call time.
	Recorder func() *Recorder
	// Logf logs retries and token refreshes (e.g. to GinkgoWriter).
	Logf func(format string, args ...any)
	// Header is sent on every request (e.g. X-Sandbox-Admin-Key for controls).
	Header http.Header
	// MaxRetries bounds 429 retries; MaxWait bounds the total time waited.
	MaxRetries int
	MaxWait    time.Duration
	// MaxBody caps each answer body read (default DefaultMaxBody).
	MaxBody int64
	// RetryAfterMax is the longest Retry-After honoured (default 30 s); a
	// longer one ends the call with a *httpclient.RetryAfterError.
	RetryAfterMax time.Duration
}

// Client talks to one base URL as one identity. Its With* methods return
// modified copies; a Client is safe for concurrent use.
type Client struct {
	o        Options
	raw429   bool
	rawAuth  bool
	token    string // fixed bearer (overrides Tokens)
	noAuth   bool
	header   http.Header
	recorder *Recorder // fixed recorder (overrides o.Recorder)
}

// New returns a client.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.HTTP == nil {
		o.HTTP = httpclient.New(httpclient.Options{Timeout: o.Timeout})
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	return &Client{o: o}
}

func (c *Client) clone() *Client {
	cp := *c
	cp.header = c.header.Clone()
	return &cp
}

// BaseURL returns the client's base URL.
func (c *Client) BaseURL() string { return c.o.BaseURL }

// Tokens returns the client's token source (nil for anonymous clients).
func (c *Client) Tokens() *TokenSource { return c.o.Tokens }

// Raw returns a copy that hands 429 answers to the caller instead of retrying.
func (c *Client) Raw() *Client { cp := c.clone(); cp.raw429 = true; return cp }

// RawAuth returns a copy that does not refresh the token and retry on 401.
func (c *Client) RawAuth() *Client { cp := c.clone(); cp.rawAuth = true; return cp }

// WithToken returns a copy sending exactly this bearer token (e.g. a forged
// or expired one); no refresh happens.
func (c *Client) WithToken(tok string) *Client {
	cp := c.clone()
	cp.token, cp.noAuth, cp.rawAuth = tok, false, true
	return cp
}

// WithoutAuth returns a copy sending no Authorization header.
func (c *Client) WithoutAuth() *Client { cp := c.clone(); cp.noAuth = true; cp.token = ""; return cp }

// WithHeader returns a copy that sends the header on every request
// (e.g. X-Merchant-Id). An empty value removes it.
func (c *Client) WithHeader(k, v string) *Client {
	cp := c.clone()
	if cp.header == nil {
		cp.header = http.Header{}
	}
	if v == "" {
		cp.header.Del(k)
	} else {
		cp.header.Set(k, v)
	}
	return cp
}

// WithRecorder returns a copy recording on r.
func (c *Client) WithRecorder(r *Recorder) *Client { cp := c.clone(); cp.recorder = r; return cp }

// WithBaseURL returns a copy addressing another root (same identity).
func (c *Client) WithBaseURL(u string) *Client {
	cp := c.clone()
	cp.o.BaseURL = strings.TrimRight(u, "/")
	return cp
}

// Request describes one call. Path is appended verbatim to the base URL (the
// caller escapes path segments, see Seg); Body is JSON-encoded unless RawBody
// is set (then sent as is, with ContentType, default application/json).
type Request struct {
	Method      string
	Path        string
	Query       url.Values
	Body        any
	RawBody     []byte
	HasRawBody  bool // send RawBody even when empty
	ContentType string
	Header      http.Header
}

// Response is an answer with its body read whole.
type Response struct {
	// Path is the request's URL path as sent (escaped, no query, not redacted).
	Path     string
	Status   int
	Header   http.Header
	Body     []byte
	Exchange *Exchange
}

// JSON decodes the body into v, keeping numbers as json.Number when v is an
// interface or map.
func (r *Response) JSON(v any) error {
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	return dec.Decode(v)
}

// Map decodes the body as a JSON object (numbers as json.Number); nil if it is not one.
func (r *Response) Map() map[string]any {
	var m map[string]any
	if r.JSON(&m) != nil {
		return nil
	}
	return m
}

// Seg escapes one path segment.
func Seg(s string) string { return url.PathEscape(s) }

// Get is a GET of path with optional query.
func (c *Client) Get(ctx context.Context, path string, query url.Values) (*Response, error) {
	return c.Do(ctx, Request{Method: http.MethodGet, Path: path, Query: query})
}

// Post sends body as JSON.
func (c *Client) Post(ctx context.Context, path string, body any) (*Response, error) {
	return c.Do(ctx, Request{Method: http.MethodPost, Path: path, Body: body})
}

// Put sends body as JSON.
func (c *Client) Put(ctx context.Context, path string, body any) (*Response, error) {
	return c.Do(ctx, Request{Method: http.MethodPut, Path: path, Body: body})
}

// Patch sends body as JSON.
func (c *Client) Patch(ctx context.Context, path string, body any) (*Response, error) {
	return c.Do(ctx, Request{Method: http.MethodPatch, Path: path, Body: body})
}

// NetError is a transport failure (no HTTP answer): the harness could not
// run the check.
type NetError struct {
	Method, URL string
	Err         error
}

func (e *NetError) Error() string {
	var re *httpclient.RedirectError
	if errors.As(e.Err, &re) {
		return fmt.Sprintf("%s %s: %s", e.Method, e.URL, redact.Text(re.Error()))
	}
	return fmt.Sprintf("%s %s: no answer: %s", e.Method, e.URL, redact.Text(e.Err.Error()))
}
func (e *NetError) Unwrap() error { return e.Err }

// BodyError is an answer whose body could not be read whole: the read
// failed, or the body is larger than the cap (errors.Is(err,
// httpclient.ErrBodyTooLarge)). The Response returned with it holds the
// status, headers and what was read.
type BodyError struct {
	Method, URL string
	Status      int
	Read        int // bytes read before the failure
	Err         error
}

func (e *BodyError) Error() string {
	if errors.Is(e.Err, httpclient.ErrBodyTooLarge) {
		return fmt.Sprintf("%s %s answered %d with a %s", e.Method, e.URL, e.Status, e.Err)
	}
	return fmt.Sprintf("%s %s answered %d but reading its body failed after %d bytes: %s", e.Method, e.URL, e.Status, e.Read, redact.Text(e.Err.Error()))
}
func (e *BodyError) Unwrap() error { return e.Err }

// Do performs the request with 429 back-off and 401 token refresh as
// configured, recording every final exchange.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	var body []byte
	hasBody := false
	switch {
	case req.RawBody != nil || req.HasRawBody:
		body, hasBody = req.RawBody, true
	case req.Body != nil:
		b, err := json.Marshal(req.Body)
		if err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
		body, hasBody = b, true
	}
	u := c.o.BaseURL + req.Path
	if len(req.Query) > 0 {
		u += "?" + req.Query.Encode()
	}
	refreshed := false
	retries := 0
	waited := time.Duration(0)
	for {
		tok := ""
		if !c.noAuth {
			if c.token != "" {
				tok = c.token
			} else if c.o.Tokens != nil {
				t, err := c.o.Tokens.Token(ctx)
				if err != nil {
					return nil, err
				}
				tok = t
			}
		}
		resp, err := c.once(ctx, req, u, body, hasBody, tok, retries)
		if err != nil {
			return resp, err
		}
		if resp.Status == http.StatusTooManyRequests && !c.raw429 && retries < c.o.MaxRetries && waited < c.o.MaxWait {
			d, err := backoff(retries, resp.Header.Get("Retry-After"), c.o.RetryAfterMax)
			if err != nil {
				return resp, fmt.Errorf("%s %s answered 429: %w", req.Method, redact.Text(u), err)
			}
			if waited+d > c.o.MaxWait {
				d = c.o.MaxWait - waited
			}
			c.logf("429 from %s %s: retry %d/%d in %s", req.Method, redact.Text(u), retries+1, c.o.MaxRetries, d.Round(time.Millisecond))
			select {
			case <-ctx.Done():
				return resp, nil
			case <-time.After(d):
			}
			waited += d
			addBackoff(d)
			retries++
			continue
		}
		if resp.Status == http.StatusUnauthorized && !c.rawAuth && !refreshed && tok != "" && c.token == "" && c.o.Tokens != nil {
			c.logf("401 from %s %s: refreshing the token and retrying once", req.Method, redact.Text(u))
			c.o.Tokens.Invalidate(tok)
			refreshed = true
			continue
		}
		return resp, nil
	}
}

func (c *Client) logf(format string, args ...any) {
	if c.o.Logf != nil {
		c.o.Logf(format, args...)
	}
}

// backoff is exponential with full jitter, at least Retry-After when given;
// a Retry-After beyond raMax is an error (httpclient.RetryAfter).
func backoff(attempt int, retryAfter string, raMax time.Duration) (time.Duration, error) {
	ceil := DefaultBackoffBase << attempt
	if ceil > DefaultBackoffCap || ceil <= 0 {
		ceil = DefaultBackoffCap
	}
	d := time.Duration(rand.Int64N(int64(ceil) + 1))
	ra, ok, err := httpclient.RetryAfter(retryAfter, time.Now(), raMax)
	if err != nil {
		return 0, err
	}
	if ok && ra > d {
		d = ra
	}
	return d, nil
}

func (c *Client) once(ctx context.Context, req Request, u string, body []byte, hasBody bool, tok string, retries int) (*Response, error) {
	actx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	var rd io.Reader
	if hasBody {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(actx, req.Method, u, rd)
	if err != nil {
		return nil, &NetError{Method: req.Method, URL: redact.Text(u), Err: err}
	}
	for k, vs := range c.o.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range c.header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range req.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	if hasBody && hr.Header.Get("Content-Type") == "" {
		ct := req.ContentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	hr.Header.Set("Accept", "application/json")
	if tok != "" {
		hr.Header.Set("Authorization", "Bearer "+tok)
	}
	secretKey := ""
	if sk, ok := req.Body.(interface{ SecretKeyForCurl() string }); ok {
		secretKey = sk.SecretKeyForCurl()
	}
	ex := &Exchange{
		Method:    req.Method,
		URL:       redact.Text(u),
		ReqHeader: redact.Header(hr.Header),
		Retries:   retries,
		Curl:      curlLine(req.Method, redact.Text(u), hr.Header, body, secretKey),
	}
	if hasBody {
		ex.ReqBody = cutBody(string(redact.JSON(body)))
	}
	start := time.Now()
	hresp, err := c.o.HTTP.Do(hr)
	if err != nil {
		ex.Duration = time.Since(start)
		ex.Err = redact.Text(err.Error())
		c.record(ex)
		return nil, &NetError{Method: req.Method, URL: ex.URL, Err: err}
	}
	defer hresp.Body.Close()
	rb, rerr := httpclient.ReadBody(hresp.Body, c.o.MaxBody)
	ex.Duration = time.Since(start)
	ex.Status = hresp.StatusCode
	ex.RespHeader = redact.Header(hresp.Header)
	// Redact the whole body first, then cut what is kept for reports.
	ex.RespBody = cutBody(string(redact.JSON(rb)))
	resp := &Response{Path: hr.URL.EscapedPath(), Status: hresp.StatusCode, Header: hresp.Header, Body: rb, Exchange: ex}
	if rerr != nil {
		be := &BodyError{Method: req.Method, URL: ex.URL, Status: hresp.StatusCode, Read: len(rb), Err: rerr}
		ex.Err = be.Error()
		c.record(ex)
		return resp, be
	}
	c.record(ex)
	return resp, nil
}

func (c *Client) record(ex *Exchange) {
	if c.recorder != nil {
		c.recorder.Add(ex)
		return
	}
	if c.o.Recorder != nil {
		c.o.Recorder().Add(ex)
	}
}

// IsNetError reports whether err is a transport failure.
func IsNetError(err error) bool {
	var ne *NetError
	return errors.As(err, &ne)
}
