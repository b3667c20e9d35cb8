package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// collectOpen reads the fixed-rate rounds: mph at every rate, vegeta and k6
// at the rates they were run at.
func collectOpen(r *Results, dir string) error {
	for _, rate := range r.Settings.OpenRates {
		o := OpenRate{Rate: rate}
		file := func(driver string, round int) string {
			return filepath.Join(dir, "open", fmt.Sprintf("%d-%s-%d.json", rate, driver, round))
		}
		var open, svc, lag, veg, k6 []Round
		var achieved, k6Rate []float64
		for i := 1; i <= r.Settings.Rounds; i++ {
			e, err := readMph(file("mph", i))
			if err != nil {
				return err
			}
			if st, err := readStalls(file("stall", i), e); err == nil {
				o.Stalls = append(o.Stalls, st)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			open = append(open, Round{P50: e.Latency.P50, P99: e.Latency.P99})
			svc = append(svc, Round{P50: e.ServiceLatency.P50, P99: e.ServiceLatency.P99})
			lag = append(lag, Round{P50: e.SendLag.P50, P99: e.SendLag.P99})
			achieved = append(achieved, e.AchievedRate)
			if v, err := readVegeta(file("vegeta", i)); err == nil {
				veg = append(veg, v)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if k, dropped, err := readK6(file("k6", i)); err == nil {
				k6 = append(k6, k)
				k6Rate = append(k6Rate, k.RPS)
				o.K6Dropped = append(o.K6Dropped, dropped)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		o.MphOpen, o.MphService, o.MphLag = latency(open), latency(svc), latency(lag)
		o.MphAchieved = median(achieved)
		if len(veg) > 0 {
			l := latency(veg)
			o.Vegeta = &l
		}
		if len(k6) > 0 {
			l := latency(k6)
			o.K6, o.K6Achieved = &l, median(k6Rate)
		}
		r.Open = append(r.Open, o)
	}
	return nil
}

// latency is the medians of the rounds' p50 and p99, with the rounds.
func latency(rs []Round) Latency {
	var l Latency
	for _, r := range rs {
		l.RoundsP50 = append(l.RoundsP50, r.P50)
		l.RoundsP99 = append(l.RoundsP99, r.P99)
	}
	l.P50, l.P99 = median(l.RoundsP50), median(l.RoundsP99)
	return l
}

var sandboxPaths = []string{"token", "list", "secure"}

func collectSandbox(r *Results, dir string) error {
	for _, p := range sandboxPaths {
		e, err := readMph(filepath.Join(dir, "sandbox", p+".json"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		r.Sandbox = append(r.Sandbox, SandboxPath{Path: p, RPS: e.Throughput, P50: e.ServiceLatency.P50})
	}
	return nil
}

// collectMemory: the peak RSS (KiB, /usr/bin/time) and the 5-second samples
// (MiB) come from run.sh, the request count from the run's summary.json.
func collectMemory(r *Results, dir string, meta map[string]string) error {
	e, err := readMph(filepath.Join(dir, "rss.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	kb, err := strconv.Atoi(meta["rss_peak_kb"])
	if err != nil {
		return fmt.Errorf("meta rss_peak_kb: %w", err)
	}
	r.Memory = Memory{PeakMB: kb / 1024, SamplesMB: words(meta["rss_samples_mb"]), Requests: e.Requests}
	r.Memory.ResultsMB, _ = strconv.Atoi(meta["rss_results_mb"])
	return nil
}

// stallSecond is one line of bench/stallmon's output.
type stallSecond struct {
	T      int64 `json:"t"`
	Stalls int   `json:"stalls"`
}

// readStalls sets the late sends of an mph round (its time series) beside
// the seconds bench/stallmon saw stall during that round.
func readStalls(path string, e mphEndpoint) (StallRound, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return StallRound{}, err
	}
	stalled := map[int64]bool{}
	var st StallRound
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s stallSecond
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			return st, fmt.Errorf("%s: %w", path, err)
		}
		st.Seconds++
		if s.Stalls > 0 {
			st.StallSeconds++
			stalled[s.T] = true
		}
	}
	if e.State == nil || e.State.Series == nil || e.State.Series.Width <= 0 {
		return st, fmt.Errorf("%s: the mph round has no time series", path)
	}
	se := e.State.Series
	for i, iv := range se.Intervals {
		st.LateSends += iv.LateSends
		from := se.Start.Add(time.Duration(i) * se.Width)
		for t := from.Unix(); t <= from.Add(se.Width-1).Unix(); t++ {
			if stalled[t] {
				st.InStalls += iv.LateSends
				break
			}
		}
	}
	return st, nil
}
