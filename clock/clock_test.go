package clock

import (
	"sync"
	"testing"
	"time"
)

func TestOffset(t *testing.T) {
	t0 := time.Date(2026, 1, 31, 23, 59, 0, 0, time.UTC)
	f := NewFake(t0)
	o := NewOffset(f)
	if !o.Now().Equal(t0) {
		t.Fatalf("Now = %v, want %v", o.Now(), t0)
	}
	o.Advance(901 * time.Second)
	if got, want := o.Now(), t0.Add(901*time.Second); !got.Equal(want) {
		t.Fatalf("after Advance: %v, want %v", got, want)
	}
	if o.Offset() != 901*time.Second {
		t.Fatalf("Offset = %v", o.Offset())
	}
	f.Advance(time.Minute) // base moves too
	if got, want := o.Now(), t0.Add(901*time.Second+time.Minute); !got.Equal(want) {
		t.Fatalf("base moved: %v, want %v", got, want)
	}
	o.Reset()
	if o.Offset() != 0 {
		t.Fatalf("Reset left offset %v", o.Offset())
	}
}

func TestRealAndDefault(t *testing.T) {
	before := time.Now()
	o := NewOffset(nil)
	now := o.Now()
	if now.Before(before) || now.Sub(before) > time.Second {
		t.Fatalf("default offset clock is not real time: %v vs %v", now, before)
	}
	var c Clock = Real{}
	if d := time.Since(c.Now()); d < 0 || d > time.Second {
		t.Fatalf("Real drift %v", d)
	}
}

func TestFakeSet(t *testing.T) {
	f := NewFake(time.Unix(0, 0))
	f.Set(time.Unix(100, 0))
	if f.Now().Unix() != 100 {
		t.Fatalf("Set: %v", f.Now())
	}
}

func TestOffsetConcurrent(t *testing.T) {
	o := NewOffset(NewFake(time.Unix(0, 0)))
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				o.Advance(time.Second)
				_ = o.Now()
			}
		}()
	}
	wg.Wait()
	if o.Offset() != 8000*time.Second {
		t.Fatalf("lost updates: offset %v", o.Offset())
	}
}
