package httpclient

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// DefaultAttackMaxBody is the most of each answer body an attack reads.
const DefaultAttackMaxBody = 64 << 10

// AttackOptions are the load generator's knobs.
type AttackOptions struct {
	Workers        uint64        // initial workers (default vegeta's 10)
	MaxWorkers     uint64        // 0 = unbounded
	Connections    int           // max idle connections per host (default vegeta's 10000)
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

// NewAttacker returns a vegeta attacker whose client is built here: the
// timeout, TLS choice and connection limits of o, the body cap enforced
// both by vegeta (what it keeps) and by the transport (what it reads), and
// the redirect policy of the other clients.
func NewAttacker(o AttackOptions) *vegeta.Attacker {
	to := o.Timeout
	if to <= 0 {
		to = DefaultTimeout
	}
	maxBody := o.MaxBody
	if maxBody <= 0 {
		maxBody = DefaultAttackMaxBody
	}
	c := &http.Client{
		Timeout:   to,
		Transport: &limitTransport{next: attackTransport(o), max: maxBody},
	}
	if o.FollowRedirects {
		c.CheckRedirect = CheckRedirect(true)
	} else {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	opts := []func(*vegeta.Attacker){vegeta.Client(c), vegeta.MaxBody(maxBody)}
	if o.Workers > 0 {
		opts = append(opts, vegeta.Workers(o.Workers))
	}
	if o.MaxWorkers > 0 {
		opts = append(opts, vegeta.MaxWorkers(o.MaxWorkers))
	}
	return vegeta.NewAttacker(opts...)
}

func attackTransport(o AttackOptions) *http.Transport {
	keepAlive := o.KeepAlive == nil || *o.KeepAlive
	d := &net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}
	if !keepAlive {
		d.KeepAlive = 0
	}
	idle := o.Connections
	if idle <= 0 {
		idle = vegeta.DefaultConnections
	}
	tr := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         d.DialContext,
		MaxIdleConnsPerHost: idle,
		MaxConnsPerHost:     o.MaxConnections,
		DisableKeepAlives:   !keepAlive,
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
