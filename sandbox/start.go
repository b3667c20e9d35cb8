package sandbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/merchant-harness/mph/sandbox/controls"
)

// Running is a sandbox listening on a TCP address.
type Running struct {
	BaseURL     string // e.g. http://127.0.0.1:PORT/v1/merchant
	ControlsURL string // e.g. http://127.0.0.1:PORT/_sandbox
	AdminKey    string
	Server      *Server

	srv  *http.Server
	done chan error
	stop func() bool
}

// Start builds a Server and serves it on addr ("127.0.0.1:0" picks a free
// port). Cancelling ctx shuts it down like Close.
func Start(ctx context.Context, addr string, opts Options) (*Running, error) {
	s, err := New(opts)
	if err != nil {
		return nil, err
	}
	if addr == "" {
		addr = DefaultAddr
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	host := ln.Addr().String()
	if ta, ok := ln.Addr().(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", itoa(ta.Port))
	}
	r := &Running{
		BaseURL:     "http://" + host + s.base,
		ControlsURL: "http://" + host + controls.Prefix,
		AdminKey:    s.opts.AdminKey,
		Server:      s,
		srv: &http.Server{
			Handler:           s,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second, // bodies are at most 64 KiB

			IdleTimeout:    120 * time.Second,
			MaxHeaderBytes: 64 << 10,
		},
		done: make(chan error, 1),
	}
	if s.opts.HideControls {
		r.ControlsURL = ""
	}
	go func() {
		err := r.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	r.stop = context.AfterFunc(ctx, func() { _ = r.Close() })
	s.log.Info("sandbox listening", "base", r.BaseURL, "controls", r.ControlsURL)
	return r, nil
}

// Close shuts the server down gracefully, waiting up to 10 s for requests in
// flight, and then closes what remains.
func (r *Running) Close() error {
	if r.stop != nil {
		r.stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := r.srv.Shutdown(ctx)
	if err != nil {
		_ = r.srv.Close()
	}
	return err
}

// CloseWithin shuts down like Close but waits at most d for requests in
// flight. An embedded sandbox uses it: its only clients are the harness's
// own, whose spare keep-alive connections (opened, never used) would hold a
// graceful Shutdown for up to 5 s.
func (r *Running) CloseWithin(d time.Duration) error {
	if r.stop != nil {
		r.stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := r.srv.Shutdown(ctx); err != nil {
		return r.srv.Close()
	}
	return nil
}

// Wait blocks until the server stops serving and returns its error, if any.
func (r *Running) Wait() error {
	err := <-r.done
	r.done <- err // let further Wait calls return too
	return err
}
