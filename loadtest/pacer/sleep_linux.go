//go:build linux

package pacer

import (
	"runtime"
	"syscall"
	"time"
)

const prSetTimerSlack = 29 // prctl(2) PR_SET_TIMERSLACK

// spinMargin is the end of a wait that sleepPrecise spends polling the
// clock instead of sleeping: on a virtual machine nanosleep(2) wakes 50 to
// 500 µs late whatever the timer slack (measured: p50 120 µs on the 2-core
// benchmark machine), so a sleep alone cannot send within 0.1 ms of the
// schedule. Polling costs at most spinMargin of CPU per hit, and yields to
// every runnable goroutine meanwhile.
const spinMargin = 200 * time.Microsecond

// sleepPrecise waits d: it sleeps all but the last spinMargin with
// nanosleep(2) on a thread whose timer slack is 1 ns (the default slack
// alone is 50 µs), then polls the clock for the rest. The thread keeps the
// small slack; that only makes its other timers more punctual.
func sleepPrecise(d time.Duration) {
	deadline := time.Now().Add(d)
	if d > spinMargin {
		nanosleep(d - spinMargin)
	}
	for time.Now().Before(deadline) {
		runtime.Gosched()
	}
}

func nanosleep(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, 1, 0)
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var rem syscall.Timespec
		if err := syscall.Nanosleep(&ts, &rem); err != syscall.EINTR {
			return
		}
		ts = rem // interrupted by a signal (the runtime preempts with SIGURG)
	}
}
