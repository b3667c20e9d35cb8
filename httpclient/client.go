// Package httpclient is the one place that builds the harness's http.Clients,
// http.Transports, dialers and TLS configurations (those of the load
// attack's own connections, loadtest/wire, included), so that every call to a target obeys
// the same rules: a timeout on every exchange, TLS verification unless the
// operator opted out, no redirect followed by default (a redirect is an error
// naming where it pointed), and an opt-in mode that follows same-origin
// redirects only. The target is untrusted: nothing here ever sends a
// credential or a request body to an origin other than the one addressed.
package httpclient

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// Defaults of the clients built here.
const (
	DefaultTimeout       = 10 * time.Second
	DefaultRetryAfterMax = 30 * time.Second
	// maxSameOriginHops bounds the same-origin redirects followed in one call.
	maxSameOriginHops = 5
	// MaxHeaderBytes bounds the headers of one answer.
	MaxHeaderBytes = 1 << 20
)

// Options configure a client.
type Options struct {
	// Timeout bounds one whole exchange, body read included (default DefaultTimeout).
	Timeout time.Duration
	// InsecureTLS skips certificate verification (MPH_INSECURE_TLS, --insecure-tls).
	InsecureTLS bool
	// FollowRedirects follows redirects whose target has the same origin
	// (scheme, host and port) as the request; a redirect to any other origin
	// is refused. Off: every redirect is refused.
	FollowRedirects bool
	// MaxBody, when positive, makes every response body fail with a
	// *BodyTooLargeError once more than MaxBody bytes have been read.
	MaxBody int64
	// MaxIdleConnsPerHost (default 64).
	MaxIdleConnsPerHost int
}

// New returns a client obeying o.
func New(o Options) *http.Client {
	to := o.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	var rt http.RoundTripper = NewTransport(o)
	if o.MaxBody > 0 {
		rt = &limitTransport{next: rt, max: o.MaxBody}
	}
	return &http.Client{Timeout: to, Transport: rt, CheckRedirect: CheckRedirect(o.FollowRedirects)}
}

// NewTransport returns the transport of the harness's clients: proxies from
// the environment, bounded dial and handshake times, keep-alive, TLS
// verification unless InsecureTLS.
func NewTransport(o Options) *http.Transport {
	idle := o.MaxIdleConnsPerHost
	if idle <= 0 {
		idle = 64
	}
	to := o.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	d := &net.Dialer{Timeout: to, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          1000,
		MaxIdleConnsPerHost:   idle,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   to,
		ResponseHeaderTimeout: to,
		ExpectContinueTimeout: time.Second,
		// A hostile target's headers are bounded like the load attack's
		// (net/http's default is 10 MiB per answer).
		MaxResponseHeaderBytes: MaxHeaderBytes,
	}
	if o.InsecureTLS {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // opted in by the operator
	}
	return tr
}
