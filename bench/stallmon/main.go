// Command stallmon is the benchmark's witness of the machine: while a
// driver runs, it sleeps 1 ms at a time on an OS timer (nanosleep(2), timer
// slack 1 ns, one locked thread, no allocation) and records how late each
// wake-up is, per wall-clock second. A wake-up more than -stall late means
// that no core was free for this process in time: the machine stalled, not
// the driver. bench/report sets mph's late sends (send lag above 0.5 ms,
// per second of its time series) beside these seconds, so that a send-lag
// goal missed on a busy machine is attributed by measurement.
//
// It runs until SIGTERM or SIGINT (or -duration) and then writes one JSON
// object per second to stdout: {"t": unix second, "wakeups": n,
// "lateMaxUs": largest lateness, "stalls": wake-ups later than -stall}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// second is one wall-clock second of wake-ups.
type second struct {
	T         int64 `json:"t"`
	Wakeups   int   `json:"wakeups"`
	LateMaxUs int64 `json:"lateMaxUs"`
	Stalls    int   `json:"stalls"`
}

const prSetTimerSlack = 29 // prctl(2) PR_SET_TIMERSLACK

func main() {
	period := flag.Duration("period", time.Millisecond, "sleep between wake-ups")
	stall := flag.Duration("stall", 500*time.Microsecond, "lateness of a wake-up that counts as a stall")
	duration := flag.Duration("duration", time.Hour, "stop after this long at the latest")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	var stop atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-sig; stop.Store(true) }()
	out := watch(*period, *stall, *duration, &stop)
	enc := json.NewEncoder(os.Stdout)
	for _, s := range out {
		if err := enc.Encode(s); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// watch sleeps period after period until stop, on one thread, and tallies
// each wake-up's lateness by wall-clock second.
func watch(period, stall, duration time.Duration, stop *atomic.Bool) []second {
	runtime.LockOSThread()
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerSlack, 1, 0)
	secs := make([]second, 0, int(duration/time.Second)+2)
	start := time.Now()
	for next := start.Add(period); !stop.Load() && time.Since(start) < duration; next = next.Add(period) {
		if d := time.Until(next); d > 0 {
			ts := syscall.NsecToTimespec(int64(d))
			for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
			}
		}
		now := time.Now()
		late := now.Sub(next)
		if late > period { // skip the wake-ups a stall swallowed
			next = now
		}
		t := now.Unix()
		if len(secs) == 0 || secs[len(secs)-1].T != t {
			if len(secs) == cap(secs) {
				break
			}
			secs = append(secs, second{T: t})
		}
		s := &secs[len(secs)-1]
		s.Wakeups++
		s.LateMaxUs = max(s.LateMaxUs, late.Microseconds())
		if late > stall {
			s.Stalls++
		}
	}
	return secs
}
