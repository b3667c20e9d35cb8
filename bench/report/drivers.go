package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Each driver's own output format, read for the figures the tables need.

var (
	wrkRate     = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)`)
	wrkQuantile = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	wrkTotal    = regexp.MustCompile(`(?m)^\s+(\d+) requests in `)
	wrkNon2xx   = regexp.MustCompile(`(?m)^\s+Non-2xx or socket errors:\s+(\d+)`)
	wrkSocket   = regexp.MustCompile(`(?m)^\s+Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// readWrk reads `wrk --latency` text: Requests/sec, the 50% and 99% lines of
// the latency distribution, and the non-2xx/socket error counts.
func readWrk(path string) (Round, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Round{}, err
	}
	s := string(b)
	m := wrkRate.FindStringSubmatch(s)
	if m == nil {
		return Round{}, errors.New("no Requests/sec line")
	}
	rd := Round{Success: -1}
	rd.RPS, _ = strconv.ParseFloat(m[1], 64)
	for _, q := range wrkQuantile.FindAllStringSubmatch(s, -1) {
		v, _ := strconv.ParseFloat(q[2], 64)
		v *= map[string]float64{"us": 1e-3, "ms": 1, "s": 1e3}[q[3]]
		if q[1] == "50" {
			rd.P50 = v
		} else {
			rd.P99 = v
		}
	}
	if t := wrkTotal.FindStringSubmatch(s); t != nil {
		total, _ := strconv.ParseFloat(t[1], 64)
		bad := 0.0
		if n := wrkNon2xx.FindStringSubmatch(s); n != nil {
			bad, _ = strconv.ParseFloat(n[1], 64)
		} else if e := wrkSocket.FindStringSubmatch(s); e != nil {
			for _, f := range e[1:] {
				v, _ := strconv.ParseFloat(f, 64)
				bad += v
			}
		}
		if total > 0 {
			rd.Success = 1 - bad/total
		}
	}
	return rd, nil
}

// vegetaReport is `vegeta report -type=json`: latencies in nanoseconds.
type vegetaReport struct {
	Latencies struct {
		P50 float64 `json:"50th"`
		P99 float64 `json:"99th"`
	} `json:"latencies"`
	Rate     float64 `json:"rate"`
	Success  float64 `json:"success"`
	Requests uint64  `json:"requests"`
}

func readVegeta(path string) (Round, error) {
	var v vegetaReport
	if err := readJSON(path, &v); err != nil {
		return Round{}, err
	}
	if v.Requests == 0 {
		return Round{}, errors.New("vegeta report: no requests")
	}
	return Round{RPS: v.Rate, P50: v.Latencies.P50 / 1e6, P99: v.Latencies.P99 / 1e6, Success: v.Success}, nil
}

// k6Summary is the data k6 hands to handleSummary (metrics → values); the
// values are also accepted at the metric's top level (--summary-export).
type k6Summary struct {
	Metrics map[string]k6Metric `json:"metrics"`
}

type k6Metric struct {
	Values map[string]float64 `json:"values"`
}

func (m *k6Metric) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Values = map[string]float64{}
	src := raw
	if v, ok := raw["values"]; ok {
		if err := json.Unmarshal(v, &src); err != nil {
			return err
		}
	}
	for k, v := range src {
		var f float64
		if json.Unmarshal(v, &f) == nil {
			m.Values[k] = f
		}
	}
	return nil
}

// readK6 gives the round and the dropped iterations (open model).
func readK6(path string) (Round, int, error) {
	var s k6Summary
	if err := readJSON(path, &s); err != nil {
		return Round{}, 0, err
	}
	reqs, ok := s.Metrics["http_reqs"]
	dur, ok2 := s.Metrics["http_req_duration"]
	if !ok || !ok2 {
		return Round{}, 0, errors.New("k6 summary: no http_reqs or http_req_duration")
	}
	rd := Round{RPS: reqs.Values["rate"], P50: dur.Values["med"], P99: dur.Values["p(99)"], Success: -1}
	if f, ok := s.Metrics["http_req_failed"]; ok {
		rd.Success = 1 - f.Values["rate"]
	}
	return rd, int(s.Metrics["dropped_iterations"].Values["count"]), nil
}

// mphSummary is the part of mph load's summary.json the bench reads
// (loadtest/summary.Report, endpoints as loadtest/metrics.Summary).
type mphSummary struct {
	Scenario  string        `json:"scenario"`
	Endpoints []mphEndpoint `json:"endpoints"`
}

type mphEndpoint struct {
	Endpoint       string     `json:"endpoint"`
	Requests       uint64     `json:"requests"`
	AchievedRate   float64    `json:"achievedRate"`
	Throughput     float64    `json:"throughput"`
	SuccessRatio   float64    `json:"successRatio"`
	Latency        mphLatency `json:"latency"`
	ServiceLatency mphLatency `json:"serviceLatency"`
	SendLag        mphLatency `json:"sendLag"`
	State          *struct {
		Series *mphSeries `json:"series"`
	} `json:"state"`
}

// mphSeries is the run's time series (loadtest/metrics.Series): its
// intervals' late sends (send lag above 0.5 ms).
type mphSeries struct {
	Start     time.Time     `json:"start"`
	Width     time.Duration `json:"width"`
	Intervals []struct {
		LateSends uint64 `json:"lateSends"`
	} `json:"intervals"`
}

type mphLatency struct {
	P50 float64 `json:"p50Ms"`
	P99 float64 `json:"p99Ms"`
}

// readMph gives the scenario's endpoint (a one-path scenario has one).
func readMph(path string) (mphEndpoint, error) {
	var s mphSummary
	if err := readJSON(path, &s); err != nil {
		return mphEndpoint{}, err
	}
	for _, e := range s.Endpoints {
		if e.Endpoint == s.Scenario {
			return e, nil
		}
	}
	if len(s.Endpoints) == 0 {
		return mphEndpoint{}, errors.New("summary.json: no endpoint")
	}
	return s.Endpoints[0], nil
}

// readMphClosed: the rate of actual sends and the latency from the actual
// send, the definitions vegeta's report uses.
func readMphClosed(path string) (Round, error) {
	e, err := readMph(path)
	if err != nil {
		return Round{}, err
	}
	return Round{RPS: e.AchievedRate, P50: e.ServiceLatency.P50, P99: e.ServiceLatency.P99, Success: e.SuccessRatio}, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// words splits a space-separated list of integers (RSS samples).
func words(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}
