package launch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/promrw"
	"github.com/merchant-harness/mph/redact"
)

// Live is the push of a run's figures to a Prometheus remote-write
// receiver while it runs (no URL: none).
type Live struct {
	URL      string
	Shown    string // the URL as outputs may show it
	Interval time.Duration
}

// NewLive registers the receiver's URL for redaction (a password in it
// never appears in any output) and shows it redacted, strip taking its
// userinfo away.
func NewLive(rawURL string, interval time.Duration, strip func(string) string) Live {
	if rawURL != "" {
		redact.RegisterURL(rawURL)
	}
	return Live{URL: rawURL, Shown: redact.Safe(strip(rawURL)), Interval: interval}
}

// Check refuses a malformed receiver before anything runs.
func (l Live) Check() error {
	if l.URL == "" {
		return nil
	}
	u, err := url.Parse(l.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--prometheus-rw %q: want an http(s) URL of a remote-write receiver", l.Shown)
	}
	if l.Interval < 100*time.Millisecond {
		return errors.New("--prometheus-rw-interval must be at least 100ms")
	}
	return nil
}

// Labels are the run's labels: the shards of one run share its run_id.
func (l Live) Labels(scenario string, p Plan, t *loadtest.Target) promrw.RunLabels {
	return promrw.RunLabels{RunID: p.MetricsRunID(scenario, t.RunID), Scenario: scenario, Shard: fmt.Sprintf("%d/%d", p.Shard, p.Shards)}
}

// Start starts the pusher (nil without a URL). Its client is httpclient's:
// a timeout on every push, TLS verified, no redirect followed.
func (l Live) Start(labels promrw.RunLabels) *promrw.Pusher {
	if l.URL == "" {
		return nil
	}
	hc := httpclient.New(httpclient.Options{})
	return promrw.Start(promrw.Options{URL: l.URL, Interval: l.Interval, Labels: labels, Client: hc})
}

// Stop pushes the last snapshot (within 15 s) and states the pushes in a
// note ("" without a pusher); failed: a push failed.
func (l Live) Stop(p *promrw.Pusher, labels promrw.RunLabels) (note string, failed bool) {
	if p == nil {
		return "", false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	st := p.Close(ctx)
	note = fmt.Sprintf("prometheus remote write to %s: %d pushes of %d series (run_id=%s, scenario=%s, shard=%s)",
		l.Shown, st.Pushes, st.Series, redact.Safe(labels.RunID), labels.Scenario, labels.Shard)
	if st.Failed > 0 || st.LastError != "" {
		note += fmt.Sprintf(", %d failed: %s", st.Failed, strings.TrimSpace(st.LastError))
		return note, true
	}
	return note, false
}
