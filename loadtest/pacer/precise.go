package pacer

import (
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Precise wraps a pacer so that its waits are slept on an OS timer
// (sleepPrecise) and vegeta's own time.Sleep gets nothing left to wait.
// When the process is idle, the Go runtime waits for timers in epoll, whose
// timeout has whole milliseconds: a time.Sleep of 1.3 ms sleeps 1 ms, then
// up to another 1 ms for the 0.3 ms left. At low rates every hit was sent
// that late, and the open-model latency described the generator's sleep
// rather than the server.
func Precise(p vegeta.Pacer) vegeta.Pacer { return precise{p} }

type precise struct{ vegeta.Pacer }

func (p precise) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	w, stop := p.Pacer.Pace(elapsed, hits)
	if stop || w <= 0 {
		return w, stop
	}
	sleepPrecise(w)
	return 0, false
}
