package httpclient

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// DefaultLoadMaxBody is the most of each answer body a load attack reads.
const DefaultLoadMaxBody = 64 << 10

// DefaultLoadConnections is the default cap on idle connections per host
// of a load attack (vegeta's).
const DefaultLoadConnections = 10000

// LoadOptions are the load generator's connection knobs. The attack's own
// HTTP/1.1 connections (loadtest/wire) and the net/http client built here
// for everything else obey the same ones.
type LoadOptions struct {
	Connections    int           // max idle connections per host (default DefaultLoadConnections)
	MaxConnections int           // max connections per host (0 = unbounded)
	HTTP2          bool          // allow HTTP/2 over TLS (default HTTP/1.1 only)
	H2C            bool          // HTTP/2 cleartext (prior knowledge)
	Timeout        time.Duration // per request, body included (default 10s)
	KeepAlive      *bool         // default true
	InsecureTLS    bool
	// MaxBody caps each answer body (default DefaultLoadMaxBody): a larger
	// one ends that request with "body larger than N bytes" (counted as an
	// error, its body not kept) and is read no further.
	MaxBody int64
	// FollowRedirects follows same-origin redirects; otherwise a redirect
	// is recorded as its 3xx answer and not followed.
	FollowRedirects bool
}

// Defaults returns o with its unset timeout, body cap and idle-connection
// cap at their defaults.
func (o LoadOptions) Defaults() LoadOptions {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultLoadMaxBody
	}
	if o.Connections <= 0 {
		o.Connections = DefaultLoadConnections
	}
	return o
}

// KeepsAlive reports whether connections are reused (the default).
func (o LoadOptions) KeepsAlive() bool { return o.KeepAlive == nil || *o.KeepAlive }

// NewLoadClient is the load attack's net/http client: o's connection limits
// and protocols, bodies capped at o.MaxBody, redirects refused (recorded as
// their 3xx) or followed within the origin, no Accept-Encoding added
// (answers are read as sent, like the attack's own connections').
func NewLoadClient(o LoadOptions) *http.Client {
	o = o.Defaults()
	c := &http.Client{Timeout: o.Timeout, Transport: &limitTransport{next: loadTransport(o), max: o.MaxBody}}
	if o.FollowRedirects {
		c.CheckRedirect = CheckRedirect(true)
	} else {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return c
}

// LoadDialer is the dialer of the attack's own connections: o's timeout,
// TCP keep-alive probes every 30 s.
func LoadDialer(o LoadOptions) *net.Dialer {
	return &net.Dialer{Timeout: o.Defaults().Timeout, KeepAlive: 30 * time.Second}
}

// LoadTLS is the TLS configuration of the attack's own connections:
// certificates verified unless o.InsecureTLS, HTTP/1.1 negotiated.
func LoadTLS(o LoadOptions) *tls.Config {
	return &tls.Config{InsecureSkipVerify: o.InsecureTLS, NextProtos: []string{"http/1.1"}} //nolint:gosec // opted in by the operator
}

// loadTransport is the net/http transport of NewLoadClient.
func loadTransport(o LoadOptions) *http.Transport {
	d := &net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}
	if !o.KeepsAlive() {
		d.KeepAlive = 0
	}
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: o.Connections,
		MaxConnsPerHost:     o.MaxConnections,
		DisableKeepAlives:   !o.KeepsAlive(),
		DisableCompression:  true,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: o.InsecureTLS}, //nolint:gosec // opted in by the operator
	}
	p := new(http.Protocols)
	p.SetHTTP1(true)
	switch {
	case o.H2C:
		p.SetHTTP1(false)
		p.SetHTTP2(true)
		p.SetUnencryptedHTTP2(true)
	case o.HTTP2:
		p.SetHTTP2(true)
	}
	tr.Protocols = p
	return tr
}
