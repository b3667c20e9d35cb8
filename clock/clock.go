// Package clock provides an injectable clock so that time-dependent rules
// (token expiry, daily and monthly spend limits) can be tested instantly.
package clock

import (
	"sync"
	"sync/atomic"
	"time"
)

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Offset is a clock running a fixed, adjustable offset ahead of a base clock.
// It is what the sandbox's clock control advances. It is safe for concurrent
// use and costs one atomic load per call.
type Offset struct {
	base Clock
	off  atomic.Int64 // nanoseconds
}

// NewOffset returns an Offset over base (Real when nil) with offset 0.
func NewOffset(base Clock) *Offset {
	if base == nil {
		base = Real{}
	}
	return &Offset{base: base}
}

// Now returns the base time plus the offset.
func (o *Offset) Now() time.Time { return o.base.Now().Add(time.Duration(o.off.Load())) }

// Advance moves the clock forward (or backward for negative d).
func (o *Offset) Advance(d time.Duration) { o.off.Add(int64(d)) }

// Offset returns the current offset.
func (o *Offset) Offset() time.Duration { return time.Duration(o.off.Load()) }

// Reset sets the offset back to zero.
func (o *Offset) Reset() { o.off.Store(0) }

// Fake is a manually driven clock standing still until Set or Advance moves it.
type Fake struct {
	mu sync.Mutex
	t  time.Time
}

// NewFake returns a Fake clock showing t.
func NewFake(t time.Time) *Fake { return &Fake{t: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

// Set moves the fake clock to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.t = t
	f.mu.Unlock()
}

// Advance moves the fake clock by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}
