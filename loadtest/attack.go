package loadtest

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/wire"
)

// The load generator: vegeta's attack loop, with vegeta's results and
// worker semantics, made lean enough that the generator is not what limits
// a run on a small machine.
//
//   - Open model (a paced schedule): one goroutine paces the hits and hands
//     each to an idle worker with its sequence number, so the hit's intended
//     send time is exactly the schedule's HitAt(seq); when every worker is
//     busy it starts another, up to MaxWorkers (as vegeta does).
//   - Closed model (--rate 0): MaxWorkers workers each send their next
//     request as soon as their previous answer is read; no pacer goroutine
//     and no hand-off per hit, and each keeps its connection for its next
//     request (wire.Lane) rather than taking one from the shared pool.
//   - Workers send through wire.Client (its own connections for
//     plain HTTP/1.1) and pass their results to the run's consumer in
//     batches, not one channel send per result. A batch is handed over when
//     full, when it is older than batchAge, or before a worker waits for its
//     next hit, so progress and abort-on-breach see results within
//     batchAge. The consumer gives each batch back once it has recorded it
//     (recycle): a batch's results and the slab holding their bodies are
//     reused, not allocated anew for every 32 results.

const (
	batchSize = 32
	batchAge  = 20 * time.Millisecond
)

type attacker struct {
	client     *wire.Client
	tr         vegeta.Targeter
	name       string
	workers    uint64
	maxWorkers uint64
	stopch     chan struct{}
	stopOnce   sync.Once
	stopped    atomic.Bool
	began      time.Time
	seq        atomic.Uint64 // closed model: next sequence number
	results    chan *resultBatch
	free       sync.Pool // *resultBatch given back by the consumer
	wg         sync.WaitGroup
}

// resultBatch is results handed over together and the slab their bodies
// live in (wire.Client.Hit).
type resultBatch struct {
	res  []vegeta.Result
	slab []byte
}

func newAttacker(o AttackOptions, tr vegeta.Targeter, name string) *attacker {
	a := &attacker{client: wire.New(o.LoadOptions), tr: tr, name: name,
		workers: o.Workers, maxWorkers: o.MaxWorkers, stopch: make(chan struct{})}
	if a.workers == 0 {
		a.workers = vegeta.DefaultWorkers
	}
	if a.maxWorkers == 0 {
		a.maxWorkers = vegeta.DefaultMaxWorkers
	}
	a.workers = min(a.workers, a.maxWorkers)
	return a
}

// stop ends the attack: no new hit starts; hits in flight finish.
func (a *attacker) stop() {
	a.stopOnce.Do(func() {
		a.stopped.Store(true)
		close(a.stopch)
	})
}

// attack runs p (closed: every worker sends back to back until p says
// stop) and returns the batches of results, closed when every worker is
// done.
func (a *attacker) attack(p vegeta.Pacer, closed bool) <-chan *resultBatch {
	a.began = time.Now()
	a.results = make(chan *resultBatch, min(a.maxWorkers, 256))
	if closed {
		for range a.maxWorkers {
			a.wg.Add(1)
			go a.closedWorker(p)
		}
		go a.finish()
		return a.results
	}
	ticks := make(chan uint64)
	for range a.workers {
		a.wg.Add(1)
		go a.openWorker(ticks)
	}
	go func() {
		a.pace(p, ticks)
		close(ticks)
		a.finish()
	}()
	return a.results
}

func (a *attacker) finish() {
	a.wg.Wait()
	close(a.results)
	a.client.Close()
	a.stop()
}

// pace hands hit after hit to the workers until p says stop or the attack
// is stopped, starting a worker when all are busy (up to maxWorkers).
func (a *attacker) pace(p vegeta.Pacer, ticks chan uint64) {
	workers := a.workers
	for count := uint64(0); ; {
		wait, stop := p.Pace(time.Since(a.began), count)
		if stop {
			return
		}
		time.Sleep(wait)
		if workers < a.maxWorkers {
			select {
			case ticks <- count:
				count++
				handOver()
				continue
			case <-a.stopch:
				return
			default: // all workers are busy: start one more
				workers++
				a.wg.Add(1)
				go a.openWorker(ticks)
			}
		}
		select {
		case ticks <- count:
			count++
		case <-a.stopch:
			return
		}
		handOver()
	}
}

// handOver yields the pacer's P right after a hand-off: the worker it woke
// waits in this P's run queue and would otherwise start only when the
// pacer's next precise sleep (a blocking syscall) gives the P up, or
// another thread steals it, which is the send lag at low rates.
func handOver() { runtime.Gosched() }

func (a *attacker) openWorker(ticks <-chan uint64) {
	defer a.wg.Done()
	b := a.newBatch(&worker{tgt: new(vegeta.Target)})
	for {
		var seq uint64
		var ok bool
		select {
		case seq, ok = <-ticks:
		default: // about to wait: hand over what is done
			b = a.flush(b)
			seq, ok = <-ticks
		}
		if !ok {
			a.flush(b)
			return
		}
		b = a.add(b, seq)
	}
}

func (a *attacker) closedWorker(p vegeta.Pacer) {
	defer a.wg.Done()
	w := &worker{tgt: new(vegeta.Target), lane: a.client.NewLane(), end: time.Now()}
	defer w.lane.Close()
	b := a.newBatch(w)
	for !a.stopped.Load() {
		// The last answer's end is now, give or take the few instructions since.
		if _, stop := p.Pace(w.end.Sub(a.began), 0); stop {
			break
		}
		b = a.add(b, a.seq.Add(1)-1)
	}
	a.flush(b)
}

// batch is a worker's results not yet handed over.
type batch struct {
	*resultBatch
	since time.Time // first result's send time
	w     *worker
}

// worker is what a worker keeps from hit to hit.
type worker struct {
	tgt  *vegeta.Target // reused hit after hit
	lane *wire.Lane     // its connection (closed model), or nil: the pool's
	end  time.Time      // when its last answer was read
}

// newBatch takes a batch the consumer gave back, or a new one.
func (a *attacker) newBatch(w *worker) batch {
	rb, _ := a.free.Get().(*resultBatch)
	if rb == nil {
		rb = &resultBatch{res: make([]vegeta.Result, 0, batchSize)}
	}
	return batch{resultBatch: rb, w: w}
}

// recycle gives a recorded batch back: nothing may use its results or
// their bodies any more.
func (a *attacker) recycle(rb *resultBatch) {
	clear(rb.res)
	rb.res, rb.slab = rb.res[:0], rb.slab[:0]
	a.free.Put(rb)
}

// add sends hit seq and hands the batch over when it is full or old.
func (a *attacker) add(b batch, seq uint64) batch {
	b.res = append(b.res, vegeta.Result{})
	r := &b.res[len(b.res)-1]
	b.slab = a.hit(r, b, seq)
	if len(b.res) == 1 {
		b.since = r.Timestamp
	}
	if len(b.res) == cap(b.res) || r.Timestamp.Sub(b.since) >= batchAge {
		return a.flush(b)
	}
	return b
}

func (a *attacker) flush(b batch) batch {
	if len(b.res) == 0 {
		return b
	}
	a.results <- b.resultBatch
	return a.newBatch(b.w)
}

// hit sends one request as vegeta's attacker does: the timestamp is taken
// before the targeter runs, the latency after the body is read (by HitOn). The body
// goes into b's slab (wire.Client.HitOn), which hit returns.
func (a *attacker) hit(r *vegeta.Result, b batch, seq uint64) []byte {
	tgt, slab := b.w.tgt, b.slab
	r.Attack, r.Seq = a.name, seq
	r.Timestamp = time.Now()
	*tgt = vegeta.Target{}
	if err := a.tr(tgt); err != nil {
		r.Error = err.Error()
		a.stop()
		b.w.end = time.Now()
		r.Latency = b.w.end.Sub(r.Timestamp)
		return slab
	}
	slab = a.client.HitOn(b.w.lane, tgt, r, slab) // sets r.Latency
	b.w.end = r.Timestamp.Add(r.Latency)
	return slab
}
