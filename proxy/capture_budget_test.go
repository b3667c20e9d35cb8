package proxy

import (
	"bytes"
	"testing"
)

// Captures draw their buffers from one budget: a body that finds it spent
// is passed on uninspected (starved), and releasing a capture gives its
// bytes back.
func TestCapturesShareOneMemoryBudget(t *testing.T) {
	mem := &memBudget{max: 96 << 10}
	a, b := newCapture(64<<10, mem), newCapture(64<<10, mem)
	chunk := bytes.Repeat([]byte("x"), 16<<10)
	for i := 0; i < 4; i++ {
		a.write(chunk)
	}
	if a.starved || a.over || len(a.buf) != 64<<10 {
		t.Fatalf("the first body fits the budget: starved %v over %v len %d", a.starved, a.over, len(a.buf))
	}
	for i := 0; i < 4; i++ {
		b.write(chunk)
	}
	if !b.starved || b.complete() || b.n != 64<<10 {
		t.Fatalf("the second body exceeds what is left: starved %v, %d bytes seen", b.starved, b.n)
	}
	if mem.used > mem.max || mem.peak > mem.max {
		t.Fatalf("used %d, peak %d of %d", mem.used, mem.peak, mem.max)
	}
	a.release()
	b.release()
	if mem.used != 0 {
		t.Fatalf("%d bytes not given back", mem.used)
	}
	c := newCapture(64<<10, mem)
	c.write(chunk)
	if c.starved {
		t.Fatal("the budget was not given back")
	}
	c.release()
}
