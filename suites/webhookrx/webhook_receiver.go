package webhookrx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/merchant-harness/mph/internal/hooklisten"
)

// The receiver's bounds: whatever reaches it, from the target or anyone
// else, its memory stays bounded (connections and timeouts: hooklisten).
const (
	maxDeliveryBody   = 1 << 20  // one delivery's body; a larger one is refused (413)
	maxKeptDeliveries = 256      // deliveries kept; the oldest are dropped, counted
	maxKeptBytes      = 16 << 20 // bodies and headers kept, in all
	largeDelivery     = 64 << 10 // dropped first when the bytes run out
	maxReceiving      = 8        // bodies read at a time (8 MiB at most in flight)
)

// Delivery is one request received by a Receiver.
type Delivery struct {
	Path     string
	Header   http.Header
	Body     []byte
	Received time.Time
}

func (d Delivery) size() int {
	n := len(d.Body) + len(d.Path)
	for k, vs := range d.Header {
		for _, v := range vs {
			n += len(k) + len(v)
		}
	}
	return n
}

// Receiver is an HTTP server the harness runs to receive webhook
// deliveries: it answers 200 to every POST on its own path and keeps the
// last deliveries, within bounds. By default it listens on 127.0.0.1 on a
// free port, which a target running on this machine (the embedded sandbox, a
// local `mph sandbox`) can reach. For a remote target,
// the configured receiver URL names the public URL that reaches the harness;
// the receiver then listens on that URL's host and port (the configured
// listen address overrides it) and hands out that URL (with its own path
// suffix).
type Receiver struct {
	srv    *http.Server
	ln     net.Listener
	public string // URL given to the target, with a unique path
	path   string // the path deliveries must be posted to

	mu      sync.Mutex
	got     []Delivery
	kept    int // bytes of got
	dropped int // deliveries dropped to stay within the bounds
	refused int // requests refused: another path or method, too large a body
	waiters map[*waiter]bool
	reading chan struct{} // a slot per body being read

	// settled, when set, asks the target whether every delivery it started
	// has finished (a sandbox control); nil waits out the timeout.
	settled func(context.Context) bool
	early   bool // the last Await stopped because nothing was in flight
}

// waiter is an Await in progress: a matching delivery is handed to it as
// it arrives, so that no flood can push it out before it is seen.
type waiter struct {
	match func(Delivery) bool
	found chan Delivery
}

// StartReceiver starts a receiver under the rules (the configured
// public URL, "" for a local one; listen address; allowed senders).
func StartReceiver(rules hooklisten.Rules) (*Receiver, error) {
	return startReceiverAt(rules, "/mph-hooks/"+hookRandomHex(6))
}

// startReceiverAt starts a receiver whose URL is the public one plus suffix
// (a pre-configured receiver uses the configured URL as it is: no suffix).
func startReceiverAt(rules hooklisten.Rules, suffix string) (*Receiver, error) {
	r := &Receiver{waiters: map[*waiter]bool{}, reading: make(chan struct{}, maxReceiving)}
	listenAddr, pub, err := rules.Address()
	if err != nil {
		return nil, err
	}
	if r.ln, err = rules.Listen(listenAddr); err != nil {
		return nil, err
	}
	r.srv = hooklisten.Server(http.HandlerFunc(r.serve))
	go func() { _ = r.srv.Serve(r.ln) }()
	r.path, r.public = suffix, "http://"+r.ln.Addr().String()+suffix
	if pub != nil {
		u := *pub
		u.Path = strings.TrimRight(pub.Path, "/") + suffix
		r.path, r.public = u.Path, strings.TrimRight(u.String(), "/")
	}
	if r.path == "" {
		r.path = "/"
	}
	return r, nil
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	// A target may append to the configured URL (webhooks.callbackUrlMatch:
	// prefix): any path below the receiver's own is a delivery.
	if req.Method != http.MethodPost || !strings.HasPrefix(req.URL.Path, strings.TrimRight(r.path, "/")) {
		r.count(&r.refused)
		http.NotFound(w, req)
		return
	}
	r.reading <- struct{}{} // bounded by the read timeout
	body, err := io.ReadAll(io.LimitReader(req.Body, maxDeliveryBody+1))
	<-r.reading
	if err != nil || len(body) > maxDeliveryBody {
		r.count(&r.refused)
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		return
	}
	r.keep(Delivery{Path: req.URL.Path, Header: req.Header.Clone(), Body: body, Received: time.Now()})
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"received":true}`)
}

func (r *Receiver) count(n *int) {
	r.mu.Lock()
	*n++
	r.mu.Unlock()
}

// keep adds d, drops the oldest deliveries beyond the bounds, and hands d
// to every waiter it matches.
func (r *Receiver) keep(d Delivery) {
	r.mu.Lock()
	r.got = append(r.got, d)
	r.kept += d.size()
	for len(r.got) > maxKeptDeliveries || r.kept > maxKeptBytes && len(r.got) > 1 {
		r.dropLocked(len(r.got) <= maxKeptDeliveries)
	}
	ws := make([]*waiter, 0, len(r.waiters))
	for w := range r.waiters {
		ws = append(ws, w)
	}
	r.mu.Unlock()
	for _, w := range ws {
		if w.match(d) {
			select {
			case w.found <- d:
			default:
			}
		}
	}
}

// dropLocked drops the oldest delivery; for bytes, the oldest large one
// first, so that a flood of large posts cannot push out a webhook (a few
// hundred bytes) that arrived before it.
func (r *Receiver) dropLocked(forBytes bool) {
	i := 0
	if forBytes {
		for j, d := range r.got {
			if d.size() > largeDelivery {
				i = j
				break
			}
		}
	}
	r.kept -= r.got[i].size()
	r.got = append(r.got[:i], r.got[i+1:]...)
	r.dropped++
}

// URL is the address to configure as the merchant's webhook URL.
func (r *Receiver) URL() string { return r.public }

// Deliveries returns the deliveries kept so far (the last ones, within the
// receiver's bounds).
func (r *Receiver) Deliveries() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.got...)
}

// Dropped says how many requests the receiver did not keep ("" when none):
// refused ones and the oldest deliveries dropped to stay within bounds.
func (r *Receiver) Dropped() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dropped == 0 && r.refused == 0 {
		return ""
	}
	return fmt.Sprintf("%d deliveries dropped (the receiver keeps the last %d, %d MiB in all), %d requests refused (another path or method, a body over %d KiB)",
		r.dropped, maxKeptDeliveries, maxKeptBytes>>20, r.refused, maxDeliveryBody>>10)
}

// Await waits until a delivery satisfying match has arrived (or timeout).
// With a settled probe it stops as soon as the target reports nothing in
// flight and no delivery matched: nothing more can arrive.
func (r *Receiver) Await(ctx context.Context, timeout time.Duration, match func(Delivery) bool) (Delivery, bool) {
	w := &waiter{match: match, found: make(chan Delivery, 1)}
	r.mu.Lock()
	r.waiters[w] = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.waiters, w)
		r.mu.Unlock()
	}()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	poll := time.NewTicker(100 * time.Millisecond)
	defer poll.Stop()
	r.early = false
	for _, d := range r.Deliveries() { // arrived before the wait began
		if match(d) {
			return d, true
		}
	}
	for {
		// settled is asked first: a delivery it counts as finished has
		// already been handed to the waiter.
		settled := r.settled != nil && r.settled(ctx)
		select {
		case d := <-w.found:
			return d, true
		default:
		}
		if settled {
			r.early = true
			return Delivery{}, false
		}
		select {
		case d := <-w.found:
			return d, true
		case <-poll.C:
		case <-deadline.C:
			return Delivery{}, false
		case <-ctx.Done():
			return Delivery{}, false
		}
	}
}

// Waited describes how the last Await that found nothing ended.
func (r *Receiver) Waited(timeout time.Duration) string {
	if r.early {
		return "with no delivery in flight at the target"
	}
	return "within " + timeout.String()
}

// Close stops the receiver.
func (r *Receiver) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if r.srv.Shutdown(ctx) != nil {
		_ = r.srv.Close()
	}
}

func hookRandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
