package proxy

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

// ServeOptions bound a proxy session: it ends on a signal on Stop
// (interrupted), after Duration (0: never) or on a server error, and calls
// Interim every Every (0: never), e.g. to write interim reports.
type ServeOptions struct {
	Stop     <-chan os.Signal
	Duration time.Duration
	Every    time.Duration
	Interim  func()
	ErrorLog *log.Logger // the server's own errors
}

// Serve serves the proxy on ln until the session ends, then shuts the
// server down and closes the proxy (within 15 s). It returns whether a
// signal ended it, the server's error, and the proxy's error on closing.
func (p *Proxy) Serve(ln net.Listener, o ServeOptions) (interrupted bool, serveErr, closeErr error) {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 1 << 20,
		ErrorLog: o.ErrorLog}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	interrupted, serveErr = wait(o, served)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	return interrupted, serveErr, p.Close(ctx)
}

// wait blocks until a signal (interrupted), the duration, or a server
// error, calling Interim every so often.
func wait(o ServeOptions, served <-chan error) (bool, error) {
	var timer, tick <-chan time.Time
	if o.Duration > 0 {
		timer = time.After(o.Duration)
	}
	if o.Every > 0 {
		t := time.NewTicker(o.Every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-o.Stop:
			return true, nil
		case <-timer:
			return false, nil
		case <-tick:
			o.Interim()
		case err := <-served:
			return false, fmt.Errorf("proxy server: %w", err)
		}
	}
}
