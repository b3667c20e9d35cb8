package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/config/embedded"
	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/liveguard"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/result"
)

// shared is what process 1 hands to every parallel process.
type shared struct {
	Config *config.Config
	Facts  config.Facts
}

// harness is the runner's state, all of it, one per process: the target
// and the clients behind the accessors, the declarations, the run and its
// reports, the hooks of the rooms built on it. Run (mph conform) hands it
// the target through configure; go test and ginkgo leave that to process 1.
type harness struct {
	cfg      *config.Config
	facts    config.Facts
	anon     *client.Client
	primary  *client.Client
	controls *controls.Client
	guard    *liveguard.Guard // every client's (live_guard.go)

	mu      sync.Mutex
	tokens  map[string]*client.TokenSource
	rec     *client.Recorder
	cleanup func()
	ready   bool
	hooks   []Hooks // registered by the rooms built on the runner (hooks.go)

	guardMu sync.Mutex // builds the process's token guard once (live_guard.go)
	// gate paces every client of this process under the rate limits the
	// target shows (client.Gate). Its waits end before the run's deadline:
	// the --deadline, else Ginkgo's suite timeout (one hour by default).
	gate *client.Gate
	// limiter caps this process's request rate (--max-rps).
	limiter *client.Limiter
	// deadline is the overall deadline of an mph conform run (nil: none).
	deadline atomic.Pointer[time.Time]
	// reportBudget bounds the exchange text one process attaches to failure
	// messages and report entries over the whole run (each exchange already
	// keeps at most client.MaxShownBody of each body).
	reportBudget *client.Budget

	cleanupMu sync.Mutex
	cleanups  []func() // RegisterCleanup's

	decl declRegistry // declare.go
	run  runState     // run.go

	// given is the target handed in by Run (mph conform, configure); nil
	// under go test / ginkgo, where process 1 resolves it from the
	// environment.
	given *shared
}

// h is the runner: the package's one variable of mutable state.
var h = newHarness()

func newHarness() *harness {
	return &harness{
		tokens: map[string]*client.TokenSource{}, rec: client.NewRecorder(),
		reportBudget: &client.Budget{Limit: 32 << 20},
		decl:         declRegistry{seen: map[string]bool{}, ids: map[string]string{}},
		run:          runState{stopped: make(chan struct{}), handled: make(chan struct{})},
	}
}

// configure hands the harness the target of the run and what pre-flight
// learned of it.
func (x *harness) configure(cfg *config.Config, facts config.Facts) {
	x.given = &shared{Config: cfg, Facts: facts}
}

func (x *harness) recorder() *client.Recorder {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rec
}

// liveRefused reports whether the primary credentials are LIVE and may not
// write (see live_guard.go).
func (x *harness) liveRefused() bool {
	return x.facts.Live && !x.liveWritesAllowed()
}

// LiveRefused reports whether the primary credentials are LIVE and this run
// may not write with them (no --allow-live): a spec then addresses unknown
// ids instead of creating fixtures.
func LiveRefused() bool { return h.liveRefused() }

// setup builds the per-process clients from the shared state.
func (x *harness) setup(s shared) {
	x.cfg, x.facts = s.Config, s.Facts
	hc := client.Polite(x.guardLive(x.cfg.HTTPClient(), nil), h.limiter)
	x.anon = client.New(client.Options{BaseURL: x.cfg.BaseURL, HTTP: hc, Timeout: x.cfg.Timeout, Recorder: x.recorder, Logf: clientLogf,
		MaxBody: x.cfg.BodyCap(config.DefaultConformMaxBody), Gate: h.gate, ReferenceFields: referenceFields(x.cfg)})
	x.primary = x.as(x.cfg.Primary)
	if x.cfg.ControlsURL != "" && x.facts.Controls {
		x.controls = controls.New(x.anon, x.cfg.ControlsURL, x.cfg.AdminKey)
	}
	x.ready = true
}

// clientLogf writes the clients' log lines (429 retries, token refreshes)
// to the GinkgoWriter, redacted and escaped.
func clientLogf(format string, args ...any) {
	GinkgoWriter.Print(redact.Safe(fmt.Sprintf("[client] "+format+"\n", args...)))
}

// as returns an authenticated client for the credentials, sharing one token
// source per credentials in this process.
func (x *harness) as(c config.Credentials) *client.Client {
	key := c.MerchantID + "\x00" + c.SecretKey
	x.mu.Lock()
	ts, ok := x.tokens[key]
	if !ok {
		ts = client.NewTokenSource(x.anon, c.MerchantID, c.SecretKey)
		x.tokens[key] = ts
	}
	x.mu.Unlock()
	return client.New(client.Options{
		BaseURL:  x.cfg.BaseURL,
		HTTP:     x.transport(client.Polite(x.guardLive(x.cfg.HTTPClient(), &c), h.limiter), c, x.cfg.BaseURL),
		Timeout:  x.cfg.Timeout,
		Tokens:   ts,
		Recorder: x.recorder,
		Logf:     clientLogf,
		MaxBody:  x.cfg.BodyCap(config.DefaultConformMaxBody), Gate: h.gate, ReferenceFields: referenceFields(x.cfg),
	})
}

// resolveShared is run by process 1: it resolves the target (starting the
// embedded sandbox when no base URL is configured) and runs pre-flight.
func resolveShared(ctx context.Context) (shared, func(), error) {
	if h.given != nil {
		return *h.given, func() {}, nil
	}
	st, err := config.SettingsFromEnv(config.CmdSuites)
	if err != nil {
		return shared{}, nil, err
	}
	// The sandbox outlives this node: do not bind it to the node's context.
	cfg, cleanup, err := embedded.Resolve(context.WithoutCancel(ctx), st)
	if err != nil {
		return shared{}, nil, err
	}
	f, err := config.Preflight(ctx, cfg)
	if err != nil {
		cleanup()
		return shared{}, nil, err
	}
	return shared{Config: cfg, Facts: f}, cleanup, nil
}

var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	if errs := DeclarationErrors(); len(errs) > 0 {
		AbortSuite("[harness-error] malformed spec declarations (fix the spec files):\n  " + strings.Join(errs, "\n  "))
	}
	s, cleanup, err := resolveShared(ctx)
	if err != nil {
		AbortSuite("[harness-error] cannot start: " + err.Error())
	}
	h.cleanup = cleanup
	if s.Facts.TokenProblem != "" {
		fmt.Fprintf(os.Stderr, "mph: pre-flight: %s; the run goes on and the token specs fail\n", redact.Text(s.Facts.TokenProblem))
	}
	if s.Facts.EnvDisagreement != "" {
		fmt.Fprintf(os.Stderr, "mph: pre-flight: the target contradicts itself about the environment (%s): the credentials are taken as LIVE\n", redact.Safe(s.Facts.EnvDisagreement))
	}
	if s.Facts.Live && !s.Config.AllowLive && !s.Config.Embedded {
		fmt.Fprintf(os.Stderr, "mph: the primary credentials are LIVE (%s): no write is sent without --allow-live; the specs that write are skipped\n", redact.Safe(s.Facts.LiveWhy))
	}
	b, err := json.Marshal(s)
	if err != nil {
		AbortSuite("[harness-error] sharing the configuration: " + err.Error())
	}
	return b
}, func(b []byte) {
	var s shared
	if err := json.Unmarshal(b, &s); err != nil {
		AbortSuite("[harness-error] reading the shared configuration: " + err.Error())
	}
	config.RegisterSecrets(s.Config) // a parallel process did not resolve it
	h.limiter = client.NewLimiter(s.Config.MaxRPS)
	h.gate = newRateGate(s.Config)
	h.setup(s)
	if err := h.processSetup(); err != nil {
		AbortSuite("[harness-error] " + err.Error())
	}
	GinkgoWriter.Print(redact.Safe(fmt.Sprintf("target %s (environment %s, sandbox controls: %v, run id %s)\n", s.Config.BaseURL, s.Facts.Environment, s.Facts.Controls, s.Config.RunID)))
})

// RegisterCleanup adds f to what every process runs after its last spec
// (e.g. stopping a webhook receiver). Ginkgo allows one AfterSuite per suite;
// this is it.
func RegisterCleanup(f func()) {
	h.cleanupMu.Lock()
	h.cleanups = append(h.cleanups, f)
	h.cleanupMu.Unlock()
}

var _ = SynchronizedAfterSuite(func() {
	h.cleanupMu.Lock()
	fs := append([]func(){}, h.cleanups...)
	h.cleanupMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}, func() {
	if h.cleanup != nil {
		h.cleanup()
	}
})

// Every spec starts with an empty recorder (resetRecorder, a top-level
// BeforeEach); a failed spec gets its redacted exchanges attached as a
// report entry (attachExchanges, a top-level AfterEach). run.go declares both.
func resetRecorder() {
	ResetExchanges()
	if d := h.deadline.Load(); d != nil && time.Now().After(*d) {
		NoVerdict(DeadlineSkipPrefix + "the run deadline (--deadline) passed before this spec started")
	}
}

// ResetExchanges forgets the exchanges recorded so far in this spec: a spec
// that replays many cases keeps only the last one's for its failure report.
func ResetExchanges() {
	h.mu.Lock()
	h.rec = client.NewRecorder()
	h.mu.Unlock()
}

// DeadlineSkipPrefix starts the no-verdict reason of a spec the run deadline cut.
const DeadlineSkipPrefix = "not run: "

func attachExchanges() {
	r := CurrentSpecReport()
	if !r.Failed() {
		return
	}
	// Each exchange is stored once: those already in the failure message
	// (the last shownInFailure) are not repeated in the entry.
	ex := h.recorder().Exchanges()
	upto := len(ex)
	if strings.Contains(r.Failure.Message, "--- HTTP exchange ") {
		upto = max(0, len(ex)-shownInFailure)
	}
	if txt := renderExchanges(ex[:upto], 0, len(ex), ""); txt != "" {
		AddReportEntry("http-exchanges", txt, ReportEntryVisibilityNever)
	}
}

// shownInFailure is how many of the last exchanges a failure message shows.
const shownInFailure = 3

// exchangesText renders the current spec's last shownInFailure exchanges.
func exchangesText() string {
	ex := h.recorder().Exchanges()
	skipped := max(0, len(ex)-shownInFailure)
	note := ""
	if skipped > 0 {
		note = fmt.Sprintf("(%d earlier exchanges of this spec are in the report entry http-exchanges)\n", skipped)
	}
	return renderExchanges(ex[skipped:], skipped, len(ex), note)
}

// renderExchanges renders ex, numbered from offset+1 of total, within the
// run's report budget.
func renderExchanges(ex []*client.Exchange, offset, total int, note string) string {
	if len(ex) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(note)
	for i, e := range ex {
		txt := e.String()
		if !h.reportBudget.Take(len(txt)) {
			fmt.Fprintf(&b, "--- HTTP exchange %d of %d omitted: the run's report budget of %d MiB for exchanges is spent ---\n", offset+i+1, total, h.reportBudget.Limit>>20)
			continue
		}
		fmt.Fprintf(&b, "--- HTTP exchange %d of %d (redacted) ---\n%s", offset+i+1, total, txt)
	}
	return b.String()
}

// FailHandler is the Gomega fail handler of the suites: it fails the spec
// with the message followed by the spec's last redacted HTTP exchanges and
// their curl lines. suites_test.go and Run register it.
func FailHandler(message string, callerSkip ...int) {
	skip := 0
	if len(callerSkip) > 0 {
		skip = callerSkip[0]
	}
	if txt := exchangesText(); txt != "" {
		message += "\n\n" + txt
	}
	// Target bytes in the message reach the console: redacted and escaped.
	Fail(redact.Safe(message), skip+1)
}

// InstallFailHandler installs FailHandler as Gomega's fail handler.
func InstallFailHandler() { gomega.RegisterFailHandler(FailHandler) }

// HarnessErrorPrefix starts the failure message of a harness error.
const HarnessErrorPrefix = result.HarnessErrorPrefix

// HarnessError fails the spec as a harness error: the harness could not run
// the check (a fixture could not be created, the network failed, ...). It is
// counted apart from assertion failures in every report.
func HarnessError(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	AddReportEntry(result.HarnessErrorEntry, msg, ReportEntryVisibilityNever)
	if txt := exchangesText(); txt != "" {
		msg += "\n\n" + txt
	}
	Fail(HarnessErrorPrefix+redact.Safe(msg), 1)
}

// NoVerdictPrefix starts the skip message of a spec that reached no verdict.
const NoVerdictPrefix = result.NoVerdictPrefix

// NoVerdict ends the spec without a verdict: the check ran but could not
// decide (rate limited beyond the wait, a wait beyond its bound, another
// documented refusal came first, an undetermined profile key, the run's
// deadline). It is never a pass: the run exits 3 unless the spec's ID is
// accepted (--accept-no-verdict). Skip stays "not applicable": a capability,
// credential or consent the check needs is absent, or the profile declares
// a choice under which the rule does not apply.
func NoVerdict(reason string) {
	AddReportEntry(result.NoVerdictEntry, reason, ReportEntryVisibilityNever)
	Skip(NoVerdictPrefix + reason)
}

// Must returns resp, or ends the spec as a harness error when the call got
// no HTTP answer at all (network error, timeout, token exchange failure).
func Must(resp *client.Response, err error) *client.Response {
	GinkgoHelper()
	if err != nil {
		var na *NotApplicableError
		if errors.As(err, &na) {
			Skip(na.Reason)
		}
		if errors.Is(err, errLiveWrite) {
			Skip("refused: this request would write with LIVE credentials; " + AllowLiveHint + " to allow it")
		}
		var rl *client.RateLimitedError
		if errors.As(err, &rl) {
			// A rate window longer than the run allows to wait (the
			// document gives no numbers) is no verdict on the rule this
			// spec checks.
			NoVerdict(err.Error())
		}
		if errors.Is(err, httpclient.ErrBodyTooLarge) {
			// The target answered, too much: a broken answer, not a harness fault.
			FailHandler(err.Error(), 1)
		}
		var te *client.TokenError
		if errors.As(err, &te) {
			HarnessError("%v (the harness needs a token to run this check)", te)
		}
		HarnessError("%v", err)
	}
	return resp
}

// API is the primary TEST merchant, authenticated.
func API() *client.Client { mustReady(); return h.primary }

// APIAs is an authenticated client for other credentials.
func APIAs(c config.Credentials) *client.Client { mustReady(); return h.as(c) }

// Anonymous sends no Authorization header.
func Anonymous() *client.Client { mustReady(); return h.anon }

// Controls is the sandbox test-controls client; it Skips the spec when the
// target offers none (prefer declaring Needs(CapSandboxControls)).
func Controls() *controls.Client {
	mustReady()
	if h.controls == nil {
		Skip(missingReason(CapSandboxControls))
	}
	return h.controls
}

// Profile is the target profile (the "not shown" choices).
func Profile() *api.Profile { mustReady(); return h.cfg.Profile }

// Cfg is the resolved target configuration.
func Cfg() *config.Config { mustReady(); return h.cfg }

// Environment is the environment the primary token states (TEST or LIVE).
func Environment() string { mustReady(); return h.facts.Environment }

func mustReady() {
	if !h.ready {
		panic("suites: accessor used outside a running spec (before the suite set-up)")
	}
}
