// Command sandboxd runs the reference sandbox in its own process for the load
// driver's integration tests and benchmarks, so that a race-instrumented test
// binary measures a normally compiled server. It prints one JSON line with
// the base URL, controls URL and admin key, then serves until killed or until
// its stdin closes.
//
//	sandboxd [-addr 127.0.0.1:0] [-rate-limit secure=100:100 ...] [-no-rate-limits]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/ratelimit"
)

type limits map[string]ratelimit.Limit

func (l limits) String() string { return fmt.Sprint(map[string]ratelimit.Limit(l)) }
func (l limits) Set(s string) error {
	g, rl, err := ratelimit.Parse(s)
	if err != nil {
		return err
	}
	l[g] = rl
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	off := flag.Bool("no-rate-limits", false, "disable rate limits")
	rl := limits{}
	flag.Var(rl, "rate-limit", "group=rate[:burst] (repeatable)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := sandbox.Options{DisableRateLimits: *off}
	if len(rl) > 0 {
		opts.RateLimits = rl
	}
	r, err := sandbox.Start(ctx, *addr, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandboxd:", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"baseURL": r.BaseURL, "controlsURL": r.ControlsURL, "adminKey": r.AdminKey})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); stop() }()
	<-ctx.Done()
	_ = r.Close()
}
