package framework

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// EnvWebhookListen is the local address the receiver listens on when
// MPH_WEBHOOK_RECEIVER_URL reaches this machine through a tunnel or proxy on
// another port (default: all interfaces on the URL's port).
const EnvWebhookListen = "MPH_WEBHOOK_LISTEN"

// WebhookDelivery is one request received by a WebhookReceiver.
type WebhookDelivery struct {
	Path     string
	Header   http.Header
	Body     []byte
	Received time.Time
}

// WebhookReceiver is an HTTP server the harness runs to receive webhook
// deliveries. Each receiver answers 200 to every POST and keeps what it got.
// By default it listens on 127.0.0.1 on a free port, which a target running on
// this machine (the embedded sandbox, a local `mph sandbox`) can reach. For a
// remote target, MPH_WEBHOOK_RECEIVER_URL names the public URL that reaches
// the harness; the receiver then listens on all interfaces on that URL's port
// and hands out that URL (with its own path suffix) as its address.
type WebhookReceiver struct {
	srv    *httptest.Server
	public string // URL given to the target, with a unique path

	mu    sync.Mutex
	got   []WebhookDelivery
	added chan struct{}

	// settled, when set, asks the target whether every delivery it started
	// has finished (a sandbox control); nil waits out the timeout.
	settled func(context.Context) bool
	early   bool // the last Await stopped because nothing was in flight
}

// StartWebhookReceiver starts a receiver. publicURL is the configured public
// URL of the receiver ("" for a local one).
func StartWebhookReceiver(publicURL string) (*WebhookReceiver, error) {
	return startReceiverAt(publicURL, "/mph-hooks/"+hookRandomHex(6))
}

// startReceiverAt starts a receiver whose URL is publicURL plus suffix (a
// pre-configured receiver uses the configured URL as it is: no suffix).
func startReceiverAt(publicURL, suffix string) (*WebhookReceiver, error) {
	r := &WebhookReceiver{added: make(chan struct{}, 1)}
	listenAddr := "127.0.0.1:0"
	var pub *url.URL
	if publicURL != "" {
		u, err := url.Parse(publicURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("webhook receiver URL %q is not a URL", publicURL)
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443"}[u.Scheme]
			if port == "" {
				port = "80"
			}
		}
		listenAddr = ":" + port
		pub = u
	}
	if v := os.Getenv(EnvWebhookListen); v != "" && pub != nil {
		listenAddr = v // a tunnel (ngrok, a load balancer) forwards to another local port
	}
	ln, err := net.Listen("tcp", listenAddr)
	if err != nil {
		return nil, fmt.Errorf("webhook receiver: listen on %s: %w", listenAddr, err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(r.serve))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	r.srv = srv
	if pub != nil {
		r.public = strings.TrimRight(pub.String(), "/") + suffix
	} else {
		r.public = srv.URL + suffix
	}
	return r, nil
}

func (r *WebhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	r.mu.Lock()
	r.got = append(r.got, WebhookDelivery{Path: req.URL.Path, Header: req.Header.Clone(), Body: body, Received: time.Now()})
	r.mu.Unlock()
	select {
	case r.added <- struct{}{}:
	default:
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"received":true}`)
}

// URL is the address to configure as the merchant's webhook URL.
func (r *WebhookReceiver) URL() string { return r.public }

// Deliveries returns everything received so far.
func (r *WebhookReceiver) Deliveries() []WebhookDelivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]WebhookDelivery(nil), r.got...)
}

// Await waits until a delivery satisfying match has arrived (or timeout).
// With a settled probe it stops as soon as the target reports nothing in
// flight and no delivery matched: nothing more can arrive.
func (r *WebhookReceiver) Await(ctx context.Context, timeout time.Duration, match func(WebhookDelivery) bool) (WebhookDelivery, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	r.early = false
	for {
		// settled is asked first: a delivery it counts as finished is
		// already in the list read next.
		settled := r.settled != nil && r.settled(ctx)
		for _, d := range r.Deliveries() {
			if match(d) {
				return d, true
			}
		}
		if settled {
			r.early = true
			return WebhookDelivery{}, false
		}
		select {
		case <-r.added:
		case <-poll.C:
		case <-deadline.C:
			return WebhookDelivery{}, false
		case <-ctx.Done():
			return WebhookDelivery{}, false
		}
	}
}

// Waited describes how the last Await that found nothing ended.
func (r *WebhookReceiver) Waited(timeout time.Duration) string {
	if r.early {
		return "with no delivery in flight at the target"
	}
	return "within " + timeout.String()
}

// Close stops the receiver.
func (r *WebhookReceiver) Close() { r.srv.Close() }

func hookRandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
