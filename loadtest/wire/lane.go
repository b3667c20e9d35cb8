package wire

import "time"

// Lane is one worker's connection, kept from one request to the worker's
// next instead of going back to the pool: a closed-model worker sends
// back to back, so its connection is never idle long and no other worker
// needs it, and taking and keeping it needs no lock and no map. The
// pool's rules hold for it (fresh, bytes after an answer, reuse after
// failure). Close gives the connection to the pool. A Lane is used by one
// goroutine at a time.
type Lane struct {
	p    *connPool
	c    *poolConn
	kept bool   // c was kept by the request under way: stamp sets its last use
	url  string // the last target URL and its parsed form
	d    *dest
}

// NewLane returns a lane for one worker (nil when the client has no
// connections of its own: HitOn then uses the shared client).
func (c *Client) NewLane() *Lane {
	if c.pool == nil {
		return nil
	}
	return &Lane{p: c.pool}
}

// Close gives the lane's connection back to the pool.
func (l *Lane) Close() {
	if l == nil || l.c == nil {
		return
	}
	l.p.put(l.c, l.c.used)
	l.c = nil
}

// take returns the lane's connection when it goes to key and may carry a
// request at now; one to another origin goes back to the pool.
func (l *Lane) take(key string, now time.Time) *poolConn {
	if l == nil || l.c == nil {
		return nil
	}
	c := l.c
	l.c = nil
	if c.key != key {
		l.p.put(c, c.used)
		return nil
	}
	if !fresh(c, now) {
		return nil
	}
	return c
}

// keep holds c for the lane's next request; bytes after a complete answer
// are not HTTP/1.1, so such a connection is closed instead. Its last use is
// stamped once the request is done (stamp), with the clock reading that
// ends the request's latency.
func (l *Lane) keep(c *poolConn) {
	if c.br.Buffered() != 0 {
		_ = c.nc.Close()
		return
	}
	l.c, l.kept = c, true
}

// stamp records end as the last use of the connection the request just
// done kept.
func (l *Lane) stamp(end time.Time) {
	if l != nil && l.kept {
		l.c.used, l.kept = end, false
	}
}

// dest is c.dest(raw), remembered for the lane's next request to the same
// URL (a worker's targets are few; often one).
func (l *Lane) dest(c *Client, raw string) (*dest, error) {
	if l == nil {
		return c.dest(raw)
	}
	if l.d != nil && l.url == raw {
		return l.d, nil
	}
	d, err := c.dest(raw)
	if err == nil {
		l.url, l.d = raw, d
	}
	return d, err
}
