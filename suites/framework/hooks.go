package framework

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
)

// Hooks are what a room built on the runner asks it to run at its points
// (package fixtures: the spend books and the teardown). A room registers
// them from its init, before any spec; the runner never imports it.
type Hooks struct {
	// Transport wraps the HTTP client of every authenticated client (the
	// spend books observe the money requests at the transport).
	Transport func(hc *http.Client, who config.Credentials, baseURL string) *http.Client
	// ProcessSetup runs in every process once its clients are set up,
	// before the first spec; an error aborts the suite as a harness error.
	ProcessSetup func() error
	// Interrupt runs when mph conform is interrupted, before the reports
	// are written, and may add to them (the money entry).
	Interrupt func(r *types.Report)
	// InterruptCut runs at the second signal: it cuts Interrupt short.
	InterruptCut func()
}

// Register adds hooks to the runner's.
func Register(hk Hooks) {
	h.mu.Lock()
	h.hooks = append(h.hooks, hk)
	h.mu.Unlock()
}

// registered returns the hooks registered so far.
func (x *harness) registered() []Hooks {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]Hooks(nil), x.hooks...)
}

// transport wraps hc with every registered Transport hook.
func (x *harness) transport(hc *http.Client, who config.Credentials, baseURL string) *http.Client {
	for _, hk := range x.registered() {
		if hk.Transport != nil {
			hc = hk.Transport(hc, who, baseURL)
		}
	}
	return hc
}

// processSetup runs every ProcessSetup hook, in the order registered.
func (x *harness) processSetup() error {
	for _, hk := range x.registered() {
		if hk.ProcessSetup != nil {
			if err := hk.ProcessSetup(); err != nil {
				return err
			}
		}
	}
	return nil
}

// interrupted runs every Interrupt hook on the interrupted run's report.
func (x *harness) interrupted(r *types.Report) {
	for _, hk := range x.registered() {
		if hk.Interrupt != nil {
			hk.Interrupt(r)
		}
	}
}

// cutInterrupt runs every InterruptCut hook (a second signal).
func (x *harness) cutInterrupt() {
	for _, hk := range x.registered() {
		if hk.InterruptCut != nil {
			hk.InterruptCut()
		}
	}
}

// NotApplicableError is an error the spec is not applicable under: Must
// skips the spec with its reason (a request refused before it was sent,
// e.g. by --max-spend).
type NotApplicableError struct{ Reason string }

func (e *NotApplicableError) Error() string { return e.Reason }

// Interrupting reports whether mph conform was interrupted: the specs still
// running finish unreported while the teardown sweeps the money back.
func Interrupting() bool { return h.run.interrupting.Load() }

// RunID is the run's id, "" before the suite's set-up.
func RunID() string {
	if h.cfg == nil {
		return ""
	}
	return h.cfg.RunID
}

// LoadedProfile is the target profile, nil before the suite's set-up
// (Profile panics there).
func LoadedProfile() *api.Profile {
	if h.cfg == nil {
		return nil
	}
	return h.cfg.Profile
}

// LearnedRateLimits are the rate limits this process's gate learned (nil
// before the suite's set-up).
func LearnedRateLimits() []string {
	if h.gate == nil {
		return nil
	}
	return h.gate.Learned()
}

// ParallelRun reports whether the specs run in several processes.
func ParallelRun() bool {
	sc, _ := GinkgoConfiguration()
	return sc.ParallelTotal > 1
}
