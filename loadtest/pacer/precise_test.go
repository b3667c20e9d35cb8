package pacer

import (
	"runtime"
	"sort"
	"testing"
	"time"
)

// Precise sleeps the pacer's wait itself and leaves vegeta nothing to wait.
// On Linux the median lateness of a 1.3 ms wait stays well under the
// runtime timers' (about 0.5–0.8 ms on an idle process: epoll's
// millisecond timeouts).
func TestPreciseSleepsTheWait(t *testing.T) {
	s, err := Constant(100, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p := Precise(s)
	if w, stop := p.Pace(s.HitAt(3), 3); w != 0 || stop {
		t.Fatalf("Pace at the hit = %v,%v", w, stop)
	}
	if _, stop := p.Pace(s.Duration(), s.TotalHits()); !stop {
		t.Fatal("Precise does not stop after the last hit")
	}
	if p.Rate(0) != 100 {
		t.Fatalf("Rate = %v", p.Rate(0))
	}
	const wait = 1300 * time.Microsecond
	late := make([]time.Duration, 0, 50)
	for i := 0; i < 50; i++ {
		t0 := time.Now()
		w, _ := p.Pace(s.HitAt(10)-wait, 10)
		el := time.Since(t0)
		if w != 0 || el < wait {
			t.Fatalf("Pace returned %v after %v, want 0 after >= %v", w, el, wait)
		}
		late = append(late, el-wait)
	}
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	t.Logf("lateness of a %v wait: p50 %v, max %v", wait, late[len(late)/2], late[len(late)-1])
	if runtime.GOOS == "linux" && late[len(late)/2] > 300*time.Microsecond {
		t.Errorf("median lateness %v, want < 300µs", late[len(late)/2])
	}
}
