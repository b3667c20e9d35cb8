package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/launch"
	"github.com/merchant-harness/mph/loadtest/promrw"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
)

// liveFlags push a run's figures to Prometheus while it runs.
type liveFlags struct {
	url      string
	interval time.Duration
}

func (f *liveFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&f.url, "prometheus-rw", "", "push live figures to this Prometheus remote-write URL during the run, e.g. http://prometheus:9090/api/v1/write (labels run_id, scenario, shard, endpoint; see docs/load.md)")
	fs.DurationVar(&f.interval, "prometheus-rw-interval", promrw.DefaultInterval, "time between two remote-write pushes")
}

// check refuses a malformed --prometheus-rw before anything runs.
func (f *liveFlags) check() error {
	if f.url == "" {
		return nil
	}
	redact.RegisterURL(f.url) // a password in the URL never appears in any output
	u, err := url.Parse(f.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErr("--prometheus-rw %q: want an http(s) URL of a remote-write receiver", redact.Safe(report.StripUserinfo(f.url)))
	}
	if f.interval < 100*time.Millisecond {
		return usageErr("--prometheus-rw-interval must be at least 100ms")
	}
	return nil
}

// start returns the pusher of --prometheus-rw (nil without it) and says so
// unless quiet. Its client is httpclient's: a timeout on every push, TLS
// verified, no redirect followed.
func (f *liveFlags) start(errw io.Writer, quiet bool, scenario string, plan launch.Plan, t *loadtest.Target) (*promrw.Pusher, promrw.RunLabels) {
	labels := promrw.RunLabels{RunID: plan.MetricsRunID(scenario, t.RunID), Scenario: scenario, Shard: fmt.Sprintf("%d/%d", plan.Shard, plan.Shards)}
	if f.url == "" {
		return nil, labels
	}
	if !quiet {
		fmt.Fprintf(errw, "load: pushing live figures every %s to %s (run_id=%s, shard=%s)\n", f.interval,
			redact.Safe(report.StripUserinfo(f.url)), redact.Safe(labels.RunID), labels.Shard)
	}
	hc := httpclient.New(httpclient.Options{})
	return promrw.Start(promrw.Options{URL: f.url, Interval: f.interval, Labels: labels, Client: hc}), labels
}

// stop pushes the last snapshot and states the pushes in a note (and on
// stderr when one failed).
func stopLive(p *promrw.Pusher, labels promrw.RunLabels, raw string, errw io.Writer) string {
	if p == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	st := p.Close(ctx)
	note := fmt.Sprintf("prometheus remote write to %s: %d pushes of %d series (run_id=%s, scenario=%s, shard=%s)",
		redact.Safe(report.StripUserinfo(raw)), st.Pushes, st.Series, redact.Safe(labels.RunID), labels.Scenario, labels.Shard)
	if st.Failed > 0 || st.LastError != "" {
		note += fmt.Sprintf(", %d failed: %s", st.Failed, strings.TrimSpace(st.LastError))
		fmt.Fprintf(errw, "load: %s\n", note)
	}
	return note
}
