package loadtest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/pacer"
)

// Progress prints the live state of a run: one updating line on a terminal,
// plain periodic lines otherwise.
type Progress struct {
	W        io.Writer
	TTY      bool
	Every    time.Duration // plain-line period (default 5s)
	name     string
	sched    *pacer.Schedule
	warmup   time.Duration
	began    time.Time
	last     time.Time
	lastN    uint64
	lastAt   time.Time
	printedN int
}

// NewProgress writes to w, detecting a terminal when w is an *os.File.
func NewProgress(w io.Writer) *Progress {
	p := &Progress{W: w, Every: 5 * time.Second}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			p.TTY = true
		}
	}
	return p
}

func (p *Progress) begin(name string, s *pacer.Schedule, warmup time.Duration) {
	p.name, p.sched, p.warmup = name, s, warmup
	p.began = time.Now()
	p.last, p.lastAt, p.lastN, p.printedN = time.Time{}, p.began, 0, 0
}

func (p *Progress) update(now time.Time, rec *metrics.Recorder, received, total uint64) {
	if !p.TTY && now.Sub(p.last) < p.Every {
		return
	}
	p.last = now
	el := now.Sub(p.began)
	rem := p.sched.Duration() - el
	if rem < 0 {
		rem = 0
	}
	var ok, r429, other uint64
	var p99 float64
	for _, e := range rec.Endpoints() {
		ok += e.OK
		r429 += e.R429
		other += e.Requests - e.OK - e.R429
		if v := float64(e.Latency.ValueAtQuantile(99)) / 1000; v > p99 {
			p99 = v
		}
	}
	dt := now.Sub(p.lastAt).Seconds()
	achieved := 0.0
	if dt > 0 {
		achieved = float64(received-p.lastN) / dt
	}
	p.lastN, p.lastAt = received, now
	phase := ""
	if el < p.warmup {
		phase = " [warm-up]"
	}
	line := fmt.Sprintf("%s%s %s/%s  offered %.0f/s  achieved %.0f/s  p99 %.1fms  2xx %d  429 %d  other %d  (%d/%d)",
		p.name, phase, el.Truncate(time.Second), p.sched.Duration(), p.sched.Rate(el), achieved, p99, ok, r429, other, received, total)
	_ = rem
	if p.TTY {
		pad := ""
		if n := p.printedN - len(line); n > 0 {
			pad = strings.Repeat(" ", n)
		}
		fmt.Fprintf(p.W, "\r%s%s", line, pad)
		p.printedN = len(line)
	} else {
		fmt.Fprintln(p.W, line)
	}
}

func (p *Progress) finish(o *Outcome) {
	if p.TTY {
		fmt.Fprintln(p.W)
	}
	state := "done"
	switch {
	case o.Aborted != "":
		state = "aborted on breach of " + o.Aborted
	case o.Interrupted:
		state = "interrupted"
	}
	var n uint64
	if s, ok := o.Summary("all"); ok {
		n = s.Requests
	}
	fmt.Fprintf(p.W, "%s %s: %d requests measured in %s\n", o.Name, state, n, o.End.Sub(o.Start).Truncate(time.Millisecond))
}
