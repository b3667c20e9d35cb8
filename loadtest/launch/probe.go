package launch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/merchant-harness/mph/loadtest"
	"github.com/merchant-harness/mph/loadtest/probe"
	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/loadtest/topology"
)

// ProbeAsk is what `mph load probe-rate-limit` asks for.
type ProbeAsk struct {
	Tool     string   // the harness and its version, for the report
	Scenario string   // as named, for the report
	Paths    []string // the scenarios to probe, one path each
	// Setup is the scenario options of every path (Name is the path's).
	Setup loadtest.ScenarioOptions
	// Probe are the ladder's options; Probe.Quiet is also the pause between
	// two paths, which may share a limiter.
	Probe    probe.PathOptions
	Topology bool // then lay out the limiters of the probed paths
}

// Probe probes each path in turn, then (Topology) the limiters, into one
// report whose measured window is the probe's attack windows. It returns
// the error that stopped the probe (the report still holds what was
// measured) and, apart, a LIVE write refused by a path's setup (usage).
func Probe(ctx context.Context, t *loadtest.Target, a ProbeAsk) (rep *summary.Report, runErr, refused error) {
	p := &probeRun{ctx: ctx, t: t, a: a,
		rep: &summary.Report{Tool: a.Tool, Kind: "probe", Scenario: a.Scenario, Target: t.BaseURL, Embedded: t.Embedded,
			Start: time.Now(), Probe: &summary.ProbeReport{}}}
	runErr, refused = p.paths()
	if refused != nil {
		return nil, nil, refused
	}
	if runErr == nil && a.Topology {
		runErr = p.topology()
	}
	return p.finish(), runErr, nil
}

// probeRun is one probe: the report its steps fill.
type probeRun struct {
	ctx context.Context
	t   *loadtest.Target
	a   ProbeAsk
	rep *summary.Report
}

// paths probes each path in turn.
func (p *probeRun) paths() (runErr, refused error) {
	for i, path := range p.a.Paths {
		// Paths may share a limiter: let it refill before the next ladder.
		if i > 0 && sleep(p.ctx, p.a.Probe.Quiet) != nil {
			return nil, nil
		}
		if runErr, refused = p.path(path); runErr != nil || refused != nil {
			return runErr, refused
		}
	}
	return nil, nil
}

func (p *probeRun) path(path string) (runErr, refused error) {
	rep := p.rep
	so := p.a.Setup
	so.Name = path
	scn, err := loadtest.Prepare(p.ctx, p.t, so)
	if errors.Is(err, loadtest.ErrLiveRefused) {
		return nil, fmt.Errorf("probe %s: %w", path, err)
	}
	var se *loadtest.SetupError
	if errors.As(err, &se) {
		rep.Notes = append(rep.Notes, se.Notes...)
		rep.Interrupted = se.Interrupted
	}
	if err != nil {
		return fmt.Errorf("probe %s: %w", path, err), nil
	}
	pp, err := probe.Path(p.ctx, scn, p.a.Probe)
	scn.Close(context.Background())
	if pp != nil {
		rep.Probe.Paths = append(rep.Probe.Paths, *pp)
	}
	if err != nil {
		rep.Interrupted = p.ctx.Err() != nil
		return err, nil
	}
	return nil, nil
}

// topology finds the limiter groups of the probed paths.
func (p *probeRun) topology() error {
	topo, err := topology.Probe(p.ctx, p.t, p.rep.Probe.Paths, topology.Options{
		Attack: p.a.Probe.Attack, PoolSize: 2, Logf: p.a.Probe.Logf,
	})
	p.rep.Probe.Topology = topo
	if err != nil {
		p.rep.Interrupted = p.ctx.Err() != nil
		return fmt.Errorf("topology: %w", err)
	}
	return nil
}

// finish states the measured window: the probe's attack windows only.
func (p *probeRun) finish() *summary.Report {
	rep := p.rep
	rep.End = time.Now()
	rep.WindowSeconds = rep.Probe.MeasuredSeconds()
	rep.Notes = append(rep.Notes, fmt.Sprintf("measured window: the sum of the probe's attack windows (ladder steps and blasts); the probe took %.1fs in all, quiet periods and recovery waits included",
		rep.End.Sub(rep.Start).Seconds()))
	rep.Interrupted = rep.Interrupted || p.ctx.Err() != nil
	return rep
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
