package summary

import (
	"github.com/merchant-harness/mph/loadtest/metrics"
)

// ProbeStep is one step of a ladder.
type ProbeStep struct {
	Phase    string  `json:"phase"` // coarse, fine
	Offered  float64 `json:"offeredRate"`
	Requests uint64  `json:"requests"`
	OKRate   float64 `json:"okPerSec"`
	Share429 float64 `json:"share429"`
	P99Ms    float64 `json:"p99Ms"`
	Window   float64 `json:"windowSeconds"` // measured part of the step
}

// PathProbe is the characterisation of one path.
type PathProbe struct {
	Endpoint       string             `json:"endpoint"`
	LimitFound     bool               `json:"limitFound"`
	OnsetRate      float64            `json:"onsetRate"`       // first fine step above the 429 share
	CoarseOnset    float64            `json:"coarseOnset"`     // first coarse step with 429s (burst-masked)
	Ceiling        float64            `json:"acceptedCeiling"` // 2xx/s under saturation, after the burst
	Burst          float64            `json:"burstEstimate"`
	BlastRate      float64            `json:"blastRate"`
	BlastSeconds   float64            `json:"blastSeconds"`
	Steps          []ProbeStep        `json:"steps"`
	RATE02         Judged429          `json:"rate02"`         // every 429 of every phase, judged by RATE-02
	Sampled429     int                `json:"sampled429"`     // 429s of the blast whose headers were sampled
	Headers        map[string]string  `json:"headers"`        // example values of rate-limit headers seen on 429s
	HeaderPresence map[string]float64 `json:"headerPresence"` // share of sampled 429s carrying each header
	RetryAfter     string             `json:"retryAfter,omitempty"`
	FirstAfterLoad int                `json:"statusFirstAfterLoad"`  // status of a request sent as the load stopped
	JustBefore     int                `json:"statusBeforeWait"`      // status of the last refused request under saturation (429 expected)
	AfterWait      int                `json:"statusAfterRetryAfter"` // status after waiting out its Retry-After (2xx expected)
	Honoured       bool               `json:"retryAfterHonoured"`
	RecoveryMs     float64            `json:"recoveryMs"` // load stop -> first 2xx
	Polite         *PoliteResult      `json:"polite,omitempty"`
	Series         []metrics.Point    `json:"blastSeries,omitempty"`
	Notes          []string           `json:"notes,omitempty"`
	// NoSuccess says why the probe stopped climbing on a path whose target
	// answered nothing but errors or redirects (no valid 2xx, no 429): no
	// verdict on its limit, and the command exits 1.
	NoSuccess string `json:"noSuccess,omitempty"`
}

// Judged429 counts the 429 answers judged by RATE-02 ("A 429 carries the
// error envelope, statusCode 429 and the reason phrase Too Many
// Requests"), as the profile's rateLimits.envelope reads it.
type Judged429 struct {
	Seen     uint64   `json:"seen"`
	Envelope uint64   `json:"envelope"`          // a whole error envelope
	Gateway  uint64   `json:"gateway"`           // not in the envelope's form: taken as a gateway's (envelope: optional)
	Broken   uint64   `json:"broken"`            // break RATE-02
	Reasons  []string `json:"reasons,omitempty"` // why, the first few
}

// ProbeReport holds every probed path.
type ProbeReport struct {
	Paths    []PathProbe `json:"paths"`
	Topology *Topology   `json:"topology,omitempty"` // limiter groups, keys, burst and refill (topology.go)
}

// PoliteResult is the outcome of the polite client.
type PoliteResult struct {
	Work        int     `json:"work"`
	Completed   int     `json:"completed"`
	Attempts    int64   `json:"attempts"`
	Got429      int64   `json:"got429"`
	Failed      int     `json:"failed"`
	ElapsedSec  float64 `json:"elapsedSeconds"`
	EffectiveRS float64 `json:"effectiveRate"`
	MaxAttempts int64   `json:"maxAttemptsForOneItem"`
}

// PairCheck is one path saturated while another is watched at a gentle rate.
type PairCheck struct {
	Saturated string  `json:"saturated"`
	Watched   string  `json:"watched"`
	Requests  uint64  `json:"watchRequests"`
	Share429  float64 `json:"watch429Share"`
	Verdict   string  `json:"verdict"` // shared, independent, unclear
}

// KeyCheck is a path saturated by the primary token while another identity
// calls the same path.
type KeyCheck struct {
	Path     string  `json:"path"`
	Identity string  `json:"identity"` // second token (same merchant), second merchant
	Requests uint64  `json:"requests"`
	Share429 float64 `json:"share429"`
	Limited  bool    `json:"limited"` // refused too: it draws from the same bucket
}

// RateLimitPolicy is a quota declared by a RateLimit-Policy header (IETF
// draft: `"name";q=100;w=60`, or the older `100;w=60`).
type RateLimitPolicy struct {
	Raw           string  `json:"raw"`
	Quota         float64 `json:"quota"`
	WindowSeconds float64 `json:"windowSeconds,omitempty"`
}

// LimiterGroup is a set of paths drawing from one limiter.
type LimiterGroup struct {
	Paths              []string          `json:"paths"`
	Key                string            `json:"key"` // merchant, token, client, "merchant or client", unknown
	KeyEvidence        string            `json:"keyEvidence"`
	Burst              float64           `json:"burst"`
	Refill             float64           `json:"refillPerSecond"`
	RetryAfter         string            `json:"retryAfter,omitempty"`
	TokensAtRetryAfter float64           `json:"tokensAtRetryAfter,omitempty"` // refill × Retry-After: >= 1 means waiting it out suffices
	Headers            map[string]string `json:"headers,omitempty"`            // RateLimit*, X-RateLimit-* seen on any answer
	Policy             *RateLimitPolicy  `json:"declaredPolicy,omitempty"`
}

// Topology is what the probe found about how limiters are laid out.
type Topology struct {
	Groups []LimiterGroup `json:"groups"`
	RATE02 Judged429      `json:"rate02"` // every 429 of the topology's runs, judged by RATE-02
	Pairs  []PairCheck    `json:"pairs,omitempty"`
	Keys   []KeyCheck     `json:"keys,omitempty"`
	Notes  []string       `json:"notes,omitempty"`
}

// MeasuredSeconds is the sum of the measured windows of every attack of the
// probe (ladder steps and blasts); quiet periods and recovery waits are not
// included.
func (p *ProbeReport) MeasuredSeconds() float64 {
	var t float64
	for _, pp := range p.Paths {
		t += pp.BlastSeconds
		for _, s := range pp.Steps {
			t += s.Window
		}
	}
	return t
}
