package httpclient

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// DefaultAttackMaxBody is the most of each answer body an attack reads.
const DefaultAttackMaxBody = 64 << 10

// defaultAttackConnections is the default cap on idle connections per host
// (vegeta's).
const defaultAttackConnections = 10000

// AttackOptions are the load generator's knobs.
type AttackOptions struct {
	Workers        uint64        // initial workers of an open-model run (default vegeta's 10)
	MaxWorkers     uint64        // 0 = unbounded
	Connections    int           // max idle connections per host (default 10000)
	MaxConnections int           // max connections per host (0 = unbounded)
	HTTP2          bool          // allow HTTP/2 over TLS (default HTTP/1.1 only)
	H2C            bool          // HTTP/2 cleartext (prior knowledge)
	Timeout        time.Duration // per request, body included (default 10s)
	KeepAlive      *bool         // default true
	InsecureTLS    bool
	// MaxBody caps each answer body (default DefaultAttackMaxBody): a larger
	// one ends that request with "body larger than N bytes" (counted as an
	// error, its body not kept) and is read no further.
	MaxBody int64
	// FollowRedirects follows same-origin redirects; otherwise a redirect
	// is recorded as its 3xx answer and not followed.
	FollowRedirects bool
}

// attackTransport is the net/http transport of AttackClient's shared
// path: o's connection limits and protocols, no Accept-Encoding added
// (answers are read as sent, like the lean path's).
func attackTransport(o AttackOptions) *http.Transport {
	keepAlive := o.KeepAlive == nil || *o.KeepAlive
	d := &net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}
	if !keepAlive {
		d.KeepAlive = 0
	}
	idle := o.Connections
	if idle <= 0 {
		idle = defaultAttackConnections
	}
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: idle,
		MaxConnsPerHost:     o.MaxConnections,
		DisableKeepAlives:   !keepAlive,
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
