// Package client is the single HTTP client of the conformance suites. Every
// call carries a context and a timeout, is recorded (redacted) on the current
// spec's Recorder, can be rendered as a curl line, passes the run's
// rate-limit Gate (which learns the target's limits and paces the run under
// them), resends a 429 where that cannot act twice (unless raw responses are
// asked for) and authenticates through a per-merchant TokenSource that
// refreshes tokens at 80% of their lifetime and once on a 401 (unless raw
// auth behaviour is asked for).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/redact"
)

// Defaults of a Client.
const (
	DefaultMaxRetries = 8
	// DefaultMaxWait bounds a wait when nothing else does (no deadline, no
	// context deadline, no --retry-after-max).
	DefaultMaxWait = 30 * time.Second
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
	// Timeout bounds every single attempt (default httpclient.DefaultTimeout).
	Timeout time.Duration
	// Tokens authenticates requests; nil sends no Authorization header.
	Tokens *TokenSource
	// Recorder receives every exchange; it is looked up at call time.
	Recorder func() *Recorder
	// Logf logs retries and token refreshes (e.g. to GinkgoWriter).
	Logf func(format string, args ...any)
	// Header is sent on every request (e.g. X-Sandbox-Admin-Key for controls).
	Header http.Header
	// Gate paces the requests under the target's rate limits; clients of
	// one run share one (nil: a gate of this client's own, bounded by MaxWait).
	Gate *Gate
	// MaxRetries bounds the 429s resent per call; MaxWait bounds each wait
	// of the client's own gate (default DefaultMaxWait).
	MaxRetries int
	MaxWait    time.Duration
	// ReferenceFields name the top-level body fields carrying a merchant
	// reference (issuance, gift purchase; default "reference"): a POST
	// carrying one may be resent after a 429 (mayResend).
	ReferenceFields []string
	// MaxBody caps each answer body read (default DefaultMaxBody).
	MaxBody int64
	// RetryAfterMax is the longest wait of the client's own gate (it
	// overrides MaxWait; the run's gate has its own).
	RetryAfterMax time.Duration
}

// Client talks to one base URL as one identity. Its With* methods return
// modified copies; a Client is safe for concurrent use.
type Client struct {
	o        Options
	baseVar  string // the variable naming the base URL in reproduce lines ("" = none)
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
		o.Timeout = httpclient.DefaultTimeout
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
	if o.Gate == nil {
		wait := o.MaxWait
		if o.RetryAfterMax > 0 {
			wait = o.RetryAfterMax
		}
		o.Gate = NewGate(GateOptions{MaxWait: wait, Logf: o.Logf})
	}
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	return &Client{o: o, baseVar: config.EnvBaseURL}
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

// WithBaseURL returns a copy addressing another root (same identity),
// shown literally in reproduce lines.
func (c *Client) WithBaseURL(u string) *Client { return c.WithBaseURLVar(u, "") }

// WithBaseURLVar is WithBaseURL with the environment variable naming the
// root in reproduce lines (e.g. MPH_CONTROLS_URL).
func (c *Client) WithBaseURLVar(u, name string) *Client {
	cp := c.clone()
	cp.o.BaseURL = strings.TrimRight(u, "/")
	cp.baseVar = name
	return cp
}

// WithOwnGate returns a copy passing a gate of its own instead of the
// run's: for calls outside the target's rate limits (the sandbox controls),
// which must neither wait for the target's windows nor teach them.
func (c *Client) WithOwnGate() *Client {
	cp := c.clone()
	cp.o.Gate = NewGate(GateOptions{MaxWait: DefaultMaxWait, Logf: c.o.Logf})
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
	// KeptAfter429 marks a 409 answered to a POST or PATCH the client
	// resent after a 429: the first attempt was most likely kept (NoVerdict).
	KeptAfter429 bool
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

// Do performs the request through the run's rate-limit gate, resending a
// 429 when mayResend allows and refreshing the token once on a 401 as
// configured, recording every exchange. A 429 it gives up on is returned
// with a *RateLimitedError (no verdict); raw clients get every 429 as an
// answer and pass the gate by.
func (c *Client) Do(ctx context.Context, req Request) (*Response, error) {
	body, hasBody, err := encodeBody(req)
	if err != nil {
		return nil, err
	}
	u := c.o.BaseURL + req.Path
	if len(req.Query) > 0 {
		u += "?" + req.Query.Encode()
	}
	grp := groupOf(req.Method, req.Path)
	refreshed := false
	retries := 0
	var last429 *Response
	for {
		tok, err := c.bearer(ctx)
		if err != nil {
			return nil, err
		}
		if !c.raw429 {
			if err := c.o.Gate.wait(ctx, grp, req.Method, redact.Text(u)); err != nil {
				var rl *RateLimitedError
				if errors.As(err, &rl) && last429 != nil {
					rl.Status, rl.Retries = http.StatusTooManyRequests, retries
				}
				return last429, err
			}
		}
		resp, err := c.once(ctx, req, u, body, hasBody, tok, retries)
		if err != nil {
			return resp, err
		}
		if !c.raw429 {
			c.o.Gate.observe(grp, resp.Status, resp.Header)
		}
		// A raw client takes every 429 as an answer, but its token is
		// renewed like anyone's: a cached token the target already counts
		// as expired (its clock moved on) is not a refusal to report.
		if resp.Status == http.StatusUnauthorized && !c.rawAuth && !refreshed && tok != "" && c.token == "" && c.o.Tokens != nil {
			c.logf("401 from %s %s: refreshing the token and retrying once", req.Method, redact.Text(u))
			c.o.Tokens.Invalidate(tok)
			refreshed = true
			continue
		}
		if c.raw429 {
			if resp.Status == http.StatusTooManyRequests {
				statProvoked.Add(1)
			}
			return resp, nil
		}
		if resp.Status == http.StatusTooManyRequests {
			li := readLimitHeaders(resp.Header, time.Now())
			if ok, why := mayResend(req.Method, req.Path, body, c.o.ReferenceFields, resp, li); !ok {
				return resp, &RateLimitedError{Method: req.Method, URL: redact.Text(u), Group: grp, Status: resp.Status, NotResent: why, Retries: retries}
			}
			if retries >= c.o.MaxRetries {
				return resp, &RateLimitedError{Method: req.Method, URL: redact.Text(u), Group: grp, Status: resp.Status, Retries: retries}
			}
			c.logf("429 from %s %s: resending (%d of at most %d) when the gate opens", req.Method, redact.Text(u), retries+1, c.o.MaxRetries)
			retries++
			last429 = resp
			continue
		}
		if last429 != nil && resp.Status == http.StatusConflict && !idempotent(req.Method) {
			resp.KeptAfter429 = true
			resp.Exchange.Note = "409 after a resent 429: the first attempt was most likely kept"
		}
		return resp, nil
	}
}

// encodeBody is the request's body bytes (JSON-encoded unless raw).
func encodeBody(req Request) ([]byte, bool, error) {
	switch {
	case req.RawBody != nil || req.HasRawBody:
		return req.RawBody, true, nil
	case req.Body != nil:
		b, err := json.Marshal(req.Body)
		if err != nil {
			return nil, false, fmt.Errorf("encode request body: %w", err)
		}
		return b, true, nil
	}
	return nil, false, nil
}

// bearer is the token this call sends ("" for none).
func (c *Client) bearer(ctx context.Context) (string, error) {
	switch {
	case c.noAuth:
		return "", nil
	case c.token != "":
		return c.token, nil
	case c.o.Tokens != nil:
		return c.o.Tokens.Token(ctx)
	}
	return "", nil
}

func (c *Client) logf(format string, args ...any) {
	if c.o.Logf != nil {
		c.o.Logf(format, args...)
	}
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
	ex := newExchange(req.Method, redact.Text(u), hr.Header, body, hasBody, c.curl(req, u, body, tok))
	ex.Retries = retries
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
	ex.answer(hresp.Header, rb)
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

// curl describes the request for its reproduce line.
func (c *Client) curl(req Request, u string, body []byte, tok string) curlReq {
	r := curlReq{method: req.Method, url: u, base: c.o.BaseURL, baseVar: c.baseVar, body: body}
	switch b := req.Body.(type) {
	case TokenBody:
		r.secretKey, r.merchantID = b.SecretKey, b.MerchantID
	case curlBody:
		r.secretKey, r.merchantID = b.key, b.id
	case interface{ SecretKeyForCurl() string }:
		r.secretKey = b.SecretKeyForCurl()
	}
	ts := c.o.Tokens
	switch {
	case tok == "":
	case c.token != "" && ts != nil && c.token == ts.secretKey:
		r.auth, r.tokenID, r.tokenKey = "key", ts.merchantID, ts.secretKey
	case c.token != "" || ts == nil:
		r.auth = "own"
	default:
		r.auth, r.tokenID, r.tokenKey, r.tokenBase = "exchange", ts.merchantID, ts.secretKey, ts.anon.baseVar
	}
	return r
}

// IsNetError reports whether err is a transport failure.
func IsNetError(err error) bool {
	var ne *NetError
	return errors.As(err, &ne)
}
