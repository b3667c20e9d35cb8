package main

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
	RPS     float64 `json:"rps"`
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
}

// Met tells whether the ratio reaches its goal.
func (r Ratio) Met() bool { return r.Value >= r.Goal }

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
}

// Send-lag goals of the pacer, in milliseconds.
const (
	lagGoalP50 = 0.1
	lagGoalP99 = 0.5
)

// LagMet tells whether mph's send lag meets its goals at this rate.
func (o OpenRate) LagMet() bool { return o.MphLag.P50 <= lagGoalP50 && o.MphLag.P99 <= lagGoalP99 }

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
