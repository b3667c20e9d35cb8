package main

import "fmt"

// Results is everything bench/RESULTS.md and the README's bench block say,
// extracted from the drivers' own outputs by collect and stored as
// bench/results.json, so that both files can be rendered (and checked) again
// without the raw outputs.
type Results struct {
	Date     string            `json:"date"`       // UTC, minutes
	Command  string            `json:"invocation"` // make bench with the knobs set
	Quick    bool              `json:"quick,omitempty"`
	Machine  Machine           `json:"machine"`
	Settings Settings          `json:"settings"`
	Commands []Command         `json:"commands"`
	Closed   []Driver          `json:"closed"`
	Ratios   []Ratio           `json:"ratios"`
	Open     []OpenRate        `json:"open"`
	Sandbox  []SandboxPath     `json:"sandbox"`
	Memory   Memory            `json:"memory"`
	Versions map[string]string `json:"versions"`
}

// Machine is where the run happened and how busy the machine was.
type Machine struct {
	Cores      string     `json:"cores"`
	CPU        string     `json:"cpu"`
	Arch       string     `json:"arch"`
	Go         string     `json:"go"`
	Kernel     string     `json:"kernel"`
	LoadBefore [3]float64 `json:"loadBefore"` // /proc/loadavg: 1, 5, 15 minutes
	LoadAfter  [3]float64 `json:"loadAfter"`
}

// quietLoad is the 1-minute load average above which the run is flagged: on
// a machine this small, anything else running moves the figures.
const quietLoad = 0.5

// Quiet tells whether nothing else was running when the bench started.
func (m Machine) Quiet() bool { return m.LoadBefore[0] <= quietLoad }

// Settings are the knobs of the run (bench/run.sh's environment).
type Settings struct {
	Rounds          int    `json:"rounds"`
	Duration        string `json:"duration"`
	ClosedHalf      string `json:"closedHalf,omitempty"` // each closed driver ran twice per round for this long (A B … B A)
	Workers         int    `json:"workers"`
	OpenRates       []int  `json:"openRates"`
	SandboxDuration string `json:"sandboxDuration"`
	RSSRate         int    `json:"rssRate"`
	RSSDuration     string `json:"rssDuration"`
}

// Command is one driver's command line, as run.sh ran it.
type Command struct {
	Name string `json:"name"`
	Line string `json:"line"`
}

// Round is one driver's figures in one round; latencies in milliseconds.
type Round struct {
	RPS     float64 `json:"rps"` // a round run in two halves: the halves' mean, as the others`
	P50     float64 `json:"p50Ms"`
	P99     float64 `json:"p99Ms"`
	Success float64 `json:"success"` // ratio 0..1; -1 when the driver does not say
}

// Driver is one closed-model driver: its rounds and their medians.
type Driver struct {
	Key    string  `json:"key"` // wrk, vegeta, k6, mph, mph-no-results
	Name   string  `json:"name"`
	Rounds []Round `json:"rounds"`
	Median Round   `json:"median"`
}

// Ratio compares two closed-model drivers: the ratio of their medians and,
// since the rounds are interleaved, the ratio within each round.
type Ratio struct {
	Name     string    `json:"name"`
	Of       string    `json:"of"`
	To       string    `json:"to"`
	Value    float64   `json:"value"`
	PerRound []float64 `json:"perRound"`
	Goal     float64   `json:"goal,omitempty"` // at least; 0 when there is none
	// EveryRound: the goal holds only when every round's own ratio reaches
	// it, not only the ratio of the medians.
	EveryRound bool `json:"everyRound,omitempty"`
}

// Met tells whether the ratio reaches its goal.
func (r Ratio) Met() bool {
	if r.Value < r.Goal {
		return false
	}
	for _, v := range r.PerRound {
		if r.EveryRound && v < r.Goal {
			return false
		}
	}
	return true
}

// Latency is a p50/p99 pair in milliseconds with its rounds' p50s.
type Latency struct {
	P50       float64   `json:"p50Ms"`
	P99       float64   `json:"p99Ms"`
	RoundsP50 []float64 `json:"roundsP50Ms"`
	RoundsP99 []float64 `json:"roundsP99Ms"`
}

// OpenRate is the open-model comparison at one fixed rate.
type OpenRate struct {
	Rate        int      `json:"rate"`
	MphOpen     Latency  `json:"mphOpenModel"` // from the intended send time
	MphService  Latency  `json:"mphService"`   // from the actual send
	MphLag      Latency  `json:"mphSendLag"`   // actual - intended send time
	MphAchieved float64  `json:"mphAchievedRate"`
	Vegeta      *Latency `json:"vegeta,omitempty"`
	K6          *Latency `json:"k6,omitempty"`
	K6Achieved  float64  `json:"k6AchievedRate,omitempty"`
	K6Dropped   []int    `json:"k6DroppedIterations,omitempty"`
	// Stalls sets each mph round's late sends beside the machine's stalls
	// in the same seconds (bench/stallmon); absent when not measured.
	Stalls []StallRound `json:"mphLateSendsAndStalls,omitempty"`
}

// Send-lag goals of the pacer, in milliseconds: p50 (the median of the
// rounds) and p99 in every round.
const (
	lagGoalP50 = 0.1
	lagGoalP99 = 0.5
)

// LagMet tells whether mph's send lag meets its goals at this rate.
func (o OpenRate) LagMet() bool {
	if o.MphLag.P50 > lagGoalP50 || len(o.MphLag.RoundsP99) == 0 {
		return false
	}
	for _, p99 := range o.MphLag.RoundsP99 {
		if p99 > lagGoalP99 {
			return false
		}
	}
	return true
}

// StallRound is one open-model round of mph: its sends later than the
// goal's p99 (0.5 ms, per second of its time series) and how many of them
// fell in seconds in which bench/stallmon, a separate process sleeping 1 ms
// at a time, woke more than 0.5 ms late: no core was free then.
type StallRound struct {
	LateSends    uint64 `json:"lateSends"`
	InStalls     uint64 `json:"lateSendsInStalledSeconds"`
	Seconds      int    `json:"seconds"`        // seconds the witness watched
	StallSeconds int    `json:"stalledSeconds"` // of which with at least one stall
}

// lagVerdict says where the lag of the rounds that missed the p99 goal
// came from, as measured ("" when every round met it or nothing was
// measured).
func (o OpenRate) lagVerdict() string {
	var missed, machine int
	for i, p99 := range o.MphLag.RoundsP99 {
		if p99 <= lagGoalP99 {
			continue
		}
		missed++
		if i < len(o.Stalls) && o.Stalls[i].Machine() {
			machine++
		}
	}
	switch {
	case missed == 0 || len(o.Stalls) == 0:
		return ""
	case machine == missed && missed == 1:
		return fmt.Sprintf("The round over the p99 goal had at least %.0f%% of its late sends in seconds when the machine stalled: the lag came from the machine.", 100*machineShare)
	case machine == missed:
		return fmt.Sprintf("All %d rounds over the p99 goal had at least %.0f%% of their late sends in seconds when the machine stalled: the lag came from the machine.", missed, 100*machineShare)
	}
	return fmt.Sprintf("%d of the %d rounds over the p99 goal had late sends outside the machine's stalls: the lag came from mph.", missed-machine, missed)
}

// machineShare is the share of late sends that the machine explains.
const machineShare = 0.9

// Machine tells whether the round's late sends came from the machine: at
// least machineShare of them fell in seconds the witness saw stall.
func (s StallRound) Machine() bool {
	return s.LateSends > 0 && float64(s.InStalls) >= machineShare*float64(s.LateSends)
}

// SandboxPath is the sandbox's throughput on one hot path.
type SandboxPath struct {
	Path string  `json:"path"`
	RPS  float64 `json:"okPerSecond"`
	P50  float64 `json:"p50Ms"`
}

// Memory is the peak RSS of one longer mph run with raw results written.
type Memory struct {
	PeakMB    int    `json:"peakMB"`
	SamplesMB []int  `json:"samplesMB"`
	Requests  uint64 `json:"requests"`
	ResultsMB int    `json:"resultsMB"`
}
