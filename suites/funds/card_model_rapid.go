package funds

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"
)

// rapid, the property-based testing library, run inside a Ginkgo spec: the
// model-based spec of card_model.go draws its sequences with it.

// Size of one model run: rapid's checks per spec (RAPID_CHECKS or
// -rapid.checks override it), steps per sequence and cards per sequence.
const (
	modelChecks    = "25"
	modelMaxSteps  = 15
	modelMaxCards  = 3
	modelShrinkFor = "10s"
)

// ---------------------------------------------------------------- rapid ↔ Ginkgo

// rapidTB adapts rapid's TB to a Ginkgo spec: it collects what rapid logs and
// reports, and turns FailNow / SkipNow into panics recovered by runRapid.
type rapidTB struct {
	mu     sync.Mutex
	name   string
	out    strings.Builder
	failed bool
}

type rapidStop struct{}
type rapidSkip struct{ msg string }

func (t *rapidTB) Helper()      {}
func (t *rapidTB) Name() string { return t.name }
func (t *rapidTB) Logf(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(&t.out, format, args...)
	t.out.WriteByte('\n')
}
func (t *rapidTB) Log(args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintln(&t.out, args...)
}
func (t *rapidTB) Errorf(format string, args ...any) { t.Logf(format, args...); t.Fail() }
func (t *rapidTB) Error(args ...any)                 { t.Log(args...); t.Fail() }
func (t *rapidTB) Fatalf(format string, args ...any) { t.Errorf(format, args...); t.FailNow() }
func (t *rapidTB) Fatal(args ...any)                 { t.Error(args...); t.FailNow() }
func (t *rapidTB) Fail()                             { t.mu.Lock(); t.failed = true; t.mu.Unlock() }
func (t *rapidTB) FailNow()                          { t.Fail(); panic(rapidStop{}) }
func (t *rapidTB) Failed() bool                      { t.mu.Lock(); defer t.mu.Unlock(); return t.failed }
func (t *rapidTB) Skipf(format string, args ...any)  { panic(rapidSkip{fmt.Sprintf(format, args...)}) }
func (t *rapidTB) Skip(args ...any)                  { panic(rapidSkip{fmt.Sprint(args...)}) }
func (t *rapidTB) SkipNow()                          { panic(rapidSkip{"skipped"}) }

var (
	rapidFlagsOnce sync.Once
	rapidUserSeed  bool // the user chose -rapid.seed or RAPID_SEED
)

// maxModelSeed keeps the seeds of the reproduction line below 13 digits:
// longer digit runs are masked as card numbers in every output.
const maxModelSeed = 1e11

// setRapidDefaults keeps model runs small and writes no fail files, unless
// the user chose otherwise (RAPID_* environment or -rapid.* flags).
func setRapidDefaults() {
	rapidFlagsOnce.Do(func() {
		userSet := map[string]bool{}
		if flag.Parsed() {
			flag.Visit(func(f *flag.Flag) { userSet[f.Name] = true })
		}
		rapidUserSeed = userSet["rapid.seed"] || os.Getenv("RAPID_SEED") != ""
		for name, v := range map[string]string{"rapid.checks": modelChecks, "rapid.nofailfile": "true", "rapid.shrinktime": modelShrinkFor} {
			env := "RAPID_" + strings.ToUpper(strings.TrimPrefix(name, "rapid."))
			if os.Getenv(env) != "" || userSet[name] || flag.Lookup(name) == nil {
				continue
			}
			_ = flag.Set(name, v)
		}
	})
}

// runRapid runs rapid.Check and returns whether it failed and what it logged
// (the failing, shrunk case's output included).
func runRapid(name string, prop func(*rapid.T)) (failed bool, output string) {
	setRapidDefaults()
	if !rapidUserSeed && flag.Lookup("rapid.seed") != nil {
		_ = flag.Set("rapid.seed", strconv.FormatUint(1+rand.Uint64N(maxModelSeed-1), 10))
	}
	tb := &rapidTB{name: name}
	func() {
		defer func() {
			switch r := recover().(type) {
			case nil, rapidStop:
			case rapidSkip:
				Skip("model-based check skipped: " + r.msg)
			default:
				panic(r)
			}
		}()
		rapid.Check(tb, prop)
	}()
	return tb.Failed(), tb.out.String()
}
