package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The raw directory bench/run.sh fills (R = round 1..rounds):
//
//	meta.env                       key=value: date, machine, load, settings, versions, cmd_* lines, rss_*
//	closed/DRIVER-R.{txt,json}     wrk text; vegeta report -type=json; k6 handleSummary; mph summary.json
//	closed/DRIVER-R-H.{txt,json}   the same, for half H (1, 2) of a round run in two halves (meta closed_half)
//	open/RATE-DRIVER-R.json        mph summary.json, vegeta report, k6 handleSummary at a fixed rate
//	sandbox/PATH.json              mph summary.json against sandboxd
//	rss.json                       mph summary.json of the memory run

// closedDrivers are the closed-model drivers in table order.
var closedDrivers = []struct{ key, name, ext string }{
	{"wrk", "wrk (C event loop, physical reference)", "txt"},
	{"vegeta", "vegeta CLI", "json"},
	{"k6", "k6 (closed: VUs looping)", "json"},
	{"mph", "mph load (results written)", "json"},
	{"mph-no-results", "mph load --no-results", "json"},
}

// collect reads the raw directory into Results.
func collect(dir string) (*Results, error) {
	meta, order, err := readMeta(filepath.Join(dir, "meta.env"))
	if err != nil {
		return nil, err
	}
	r, err := fromMeta(meta, order)
	if err != nil {
		return nil, err
	}
	if err := collectClosed(r, dir); err != nil {
		return nil, err
	}
	r.Ratios = ratios(r.Closed)
	if err := collectOpen(r, dir); err != nil {
		return nil, err
	}
	if err := collectSandbox(r, dir); err != nil {
		return nil, err
	}
	return r, collectMemory(r, dir, meta)
}

// readMeta reads key=value lines, keeping the order of the keys.
func readMeta(path string) (map[string]string, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	meta := map[string]string{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.TrimSpace(k) == "" {
			continue
		}
		if _, seen := meta[k]; !seen {
			order = append(order, k)
		}
		meta[k] = v
	}
	return meta, order, sc.Err()
}

func fromMeta(m map[string]string, order []string) (*Results, error) {
	r := &Results{Date: m["date"], Command: m["invocation"], Quick: m["quick"] == "1", Versions: map[string]string{}}
	if r.Command == "" {
		r.Command = "make bench"
	}
	r.Machine = Machine{Cores: m["cores"], CPU: strings.TrimSpace(m["cpu"]), Arch: m["arch"], Go: m["go"], Kernel: m["kernel"]}
	var err error
	if r.Machine.LoadBefore, err = loadAvg(m["load_before"]); err != nil {
		return nil, fmt.Errorf("load_before: %w", err)
	}
	if r.Machine.LoadAfter, err = loadAvg(m["load_after"]); err != nil {
		return nil, fmt.Errorf("load_after: %w", err)
	}
	s := &r.Settings
	s.Duration, s.SandboxDuration, s.RSSDuration = m["duration"], m["sandbox_duration"], m["rss_duration"]
	s.ClosedHalf = m["closed_half"]
	ints := map[string]*int{"rounds": &s.Rounds, "workers": &s.Workers, "rss_rate": &s.RSSRate}
	for k, p := range ints {
		if *p, err = strconv.Atoi(m[k]); err != nil {
			return nil, fmt.Errorf("meta %s: %w", k, err)
		}
	}
	for _, f := range strings.Fields(m["open_rates"]) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("meta open_rates: %w", err)
		}
		s.OpenRates = append(s.OpenRates, n)
	}
	for _, k := range order {
		if name, ok := strings.CutPrefix(k, "cmd_"); ok {
			r.Commands = append(r.Commands, Command{Name: name, Line: m[k]})
		}
		if name, ok := strings.CutPrefix(k, "version_"); ok && m[k] != "" {
			r.Versions[name] = m[k]
		}
	}
	return r, nil
}

// loadAvg reads the first three fields of /proc/loadavg.
func loadAvg(s string) ([3]float64, error) {
	var l [3]float64
	f := strings.Fields(s)
	if len(f) < 3 {
		return l, fmt.Errorf("want 3 load averages, got %q", s)
	}
	for i := range l {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return l, err
		}
		l[i] = v
	}
	return l, nil
}

func collectClosed(r *Results, dir string) error {
	for _, d := range closedDrivers {
		drv := Driver{Key: d.key, Name: d.name}
		for i := 1; i <= r.Settings.Rounds; i++ {
			path := filepath.Join(dir, "closed", fmt.Sprintf("%s-%d.%s", d.key, i, d.ext))
			rd, err := readClosedRound(d.key, path, r.Settings.ClosedHalf != "")
			if errors.Is(err, fs.ErrNotExist) {
				continue // that driver did not run (wrk not installed)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			drv.Rounds = append(drv.Rounds, rd)
		}
		if len(drv.Rounds) == 0 {
			continue
		}
		drv.Median = medianRound(drv.Rounds)
		r.Closed = append(r.Closed, drv)
	}
	if len(r.Closed) == 0 {
		return errors.New("no closed-model results")
	}
	return nil
}

// readClosedRound reads one round of a driver, from path or, when the round
// ran in two halves, from path's two halves (-1, -2), averaged.
func readClosedRound(key, path string, halves bool) (Round, error) {
	if !halves {
		return readClosed(key, path)
	}
	ext := filepath.Ext(path)
	var rs []Round
	for h := 1; h <= 2; h++ {
		p := fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), h, ext)
		rd, err := readClosed(key, p)
		if err != nil {
			return rd, err
		}
		rs = append(rs, rd)
	}
	mean := func(f func(Round) float64) float64 { return (f(rs[0]) + f(rs[1])) / 2 }
	return Round{
		RPS:     mean(func(r Round) float64 { return r.RPS }),
		P50:     mean(func(r Round) float64 { return r.P50 }),
		P99:     mean(func(r Round) float64 { return r.P99 }),
		Success: mean(func(r Round) float64 { return r.Success }),
	}, nil
}

func readClosed(key, path string) (Round, error) {
	switch key {
	case "wrk":
		return readWrk(path)
	case "vegeta":
		return readVegeta(path)
	case "k6":
		rd, _, err := readK6(path)
		return rd, err
	default:
		return readMphClosed(path)
	}
}

func medianRound(rs []Round) Round {
	pick := func(f func(Round) float64) float64 {
		var v []float64
		for _, r := range rs {
			v = append(v, f(r))
		}
		return median(v)
	}
	return Round{
		RPS:     pick(func(r Round) float64 { return r.RPS }),
		P50:     pick(func(r Round) float64 { return r.P50 }),
		P99:     pick(func(r Round) float64 { return r.P99 }),
		Success: pick(func(r Round) float64 { return r.Success }),
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ratios are the goals of the driver against wrk's physical reference, in
// every round (mph --no-results at least 0.9 of wrk, with results 0.8), and
// against the vegeta CLI (the ratio of the medians), with mph against k6
// for information.
func ratios(closed []Driver) []Ratio {
	by := map[string]Driver{}
	for _, d := range closed {
		by[d.Key] = d
	}
	var out []Ratio
	for _, def := range []struct {
		name, of, to string
		goal         float64
		every        bool
	}{
		{"mph load --no-results / wrk", "mph-no-results", "wrk", 0.9, true},
		{"mph load (results written) / wrk", "mph", "wrk", 0.8, true},
		{"mph load (results written) / vegeta CLI", "mph", "vegeta", 1.1, false},
		{"mph load (results written) / k6", "mph", "k6", 0, false},
	} {
		a, okA := by[def.of]
		b, okB := by[def.to]
		if !okA || !okB || b.Median.RPS == 0 {
			continue
		}
		r := Ratio{Name: def.name, Of: def.of, To: def.to, Goal: def.goal, EveryRound: def.every, Value: a.Median.RPS / b.Median.RPS}
		for i := range min(len(a.Rounds), len(b.Rounds)) {
			if b.Rounds[i].RPS > 0 {
				r.PerRound = append(r.PerRound, a.Rounds[i].RPS/b.Rounds[i].RPS)
			}
		}
		out = append(out, r)
	}
	return out
}
