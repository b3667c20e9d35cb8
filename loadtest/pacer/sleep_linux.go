//go:build linux

package pacer

import (
	"runtime"
	"syscall"
	"time"
)

const prSetTimerSlack = 29 // prctl(2) PR_SET_TIMERSLACK

// sleepPrecise sleeps d with nanosleep(2) on a thread whose timer slack is
// 1 ns, so it wakes within tens of microseconds of d (the default slack
// alone is 50 µs). The thread keeps the small slack; that only makes its
// other timers more punctual.
func sleepPrecise(d time.Duration) {
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
