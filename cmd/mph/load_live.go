package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

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

// live is the push the flags ask for.
func (f *liveFlags) live() launch.Live {
	return launch.NewLive(f.url, f.interval, report.StripUserinfo)
}

// check refuses a malformed --prometheus-rw before anything runs.
func (f *liveFlags) check() error {
	if err := f.live().Check(); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

// start returns the pusher of --prometheus-rw (nil without it) and says so
// unless quiet.
func (f *liveFlags) start(errw io.Writer, quiet bool, scenario string, plan launch.Plan, t *loadtest.Target) (*promrw.Pusher, promrw.RunLabels) {
	l := f.live()
	labels := l.Labels(scenario, plan, t)
	if l.URL != "" && !quiet {
		fmt.Fprintf(errw, "load: pushing live figures every %s to %s (run_id=%s, shard=%s)\n", l.Interval, l.Shown, redact.Safe(labels.RunID), labels.Shard)
	}
	return l.Start(labels), labels
}

// stopLive pushes the last snapshot and states the pushes in a note (and
// on stderr when one failed).
func (f *liveFlags) stopLive(p *promrw.Pusher, labels promrw.RunLabels, errw io.Writer) string {
	note, failed := f.live().Stop(p, labels)
	if failed {
		fmt.Fprintf(errw, "load: %s\n", note)
	}
	return note
}
