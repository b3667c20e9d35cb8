// Package hooklisten opens the harness's webhook receivers to the network
// (the conformance suites' and discovery's) under one set of rules: bind the
// public URL's own host (or the configured listen address), close
// connections from senders outside the configured allow-list and beyond a
// bound before a byte is read, and serve with header, read and idle
// timeouts. The configuration (package config) says the Rules.
package hooklisten

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Rules are a receiver's settings.
type Rules struct {
	// Public is the URL the target delivers to ("" = a local receiver).
	Public string
	// Local is the address a receiver with a public URL listens on
	// when a tunnel or load balancer forwards the URL to another address or
	// port ("" = the URL's own host and port).
	Local string
	// AllowFrom lists the networks deliveries may come from
	// (comma-separated addresses or CIDRs, e.g. "203.0.113.0/24,10.0.0.7");
	// connections from elsewhere are closed before a byte is read. "": any
	// sender. A provider's webhooks often leave from other addresses than
	// its API, so a delivery's signature stays the real check.
	AllowFrom string
}

// Bounds of every receiver.
const (
	MaxConnections = 128 // open connections; more are closed at once
	HeaderTimeout  = 5 * time.Second
	ReadTimeout    = 15 * time.Second
	IdleTimeout    = 30 * time.Second
	MaxHeaderBytes = 64 << 10
)

// Address is where the receiver listens: the public URL's own host and
// port, Local when set, 127.0.0.1 on a free port without a URL. It returns
// the parsed URL (nil without one).
func (r Rules) Address() (string, *url.URL, error) {
	publicURL := r.Public
	if publicURL == "" {
		return "127.0.0.1:0", nil, nil
	}
	u, err := url.Parse(publicURL)
	if err != nil || u.Host == "" {
		return "", nil, fmt.Errorf("webhook receiver URL %q is not a URL", publicURL)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	if r.Local != "" {
		addr = r.Local
	}
	return addr, u, nil
}

// Listen opens addr for the receiver: only senders of AllowFrom, at most
// MaxConnections at a time.
func (r Rules) Listen(addr string) (net.Listener, error) {
	allow, err := AllowedSenders(r.AllowFrom)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		hint := ""
		if r.Public != "" {
			hint = fmt.Sprintf(" (is the host of %s an address of this machine? set the receiver's listen address to the local one a tunnel or load balancer forwards to, e.g. 0.0.0.0:8080)", r.Public)
		}
		return nil, fmt.Errorf("webhook receiver: listen on %s: %w%s", addr, err, hint)
	}
	return &guarded{Listener: ln, allow: allow, slots: make(chan struct{}, MaxConnections)}, nil
}

// Server serves h with the receivers' timeouts and header bound; a sender's
// broken connection logs nothing.
func Server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: HeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      ReadTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
}

// AllowedSenders parses an allow-list (nil: any sender).
func AllowedSenders(v string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if ip := net.ParseIP(f); ip != nil && !strings.Contains(f, "/") {
			bits := 128
			if ip4 := ip.To4(); ip4 != nil {
				ip, bits = ip4, 32
			}
			out = append(out, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(f)
		if err != nil {
			return nil, fmt.Errorf("webhook senders: %q is not an address or a network (e.g. 203.0.113.0/24)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// guarded closes, before a byte is read, connections from senders outside
// the allow-list and those beyond MaxConnections.
type guarded struct {
	net.Listener
	allow []*net.IPNet
	slots chan struct{}
}

func (l *guarded) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !l.allowed(c.RemoteAddr()) {
			_ = c.Close()
			continue
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, free: func() { <-l.slots }}, nil
		default:
			_ = c.Close() // too many open: the sender retries, the harness keeps its memory
		}
	}
}

func (l *guarded) allowed(a net.Addr) bool {
	if len(l.allow) == 0 {
		return true
	}
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		return false
	}
	for _, n := range l.allow {
		if n.Contains(ta.IP) {
			return true
		}
	}
	return false
}

// slotConn gives its connection slot back once closed.
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	c.once.Do(c.free)
	return c.Conn.Close()
}
