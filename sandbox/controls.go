package sandbox

// Reset restores the seeded state, clock offset 0, latency 0 and the start-up
// rate limits, as POST /_sandbox/reset does.
func (s *Server) Reset() {
	s.clk.Reset()
	s.latency.Store(0)
	s.limits.Set(s.startRL)
	s.world.Store(s.newWorld())
}
