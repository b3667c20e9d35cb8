package sandbox

import "net/http"

func (s *Server) handleConfig(rc *reqCtx)          { s.notFoundRoute(rc) }
func (s *Server) handleCreateCustomer(rc *reqCtx)  { s.notFoundRoute(rc) }
func (s *Server) handleListCustomers(rc *reqCtx)   { s.notFoundRoute(rc) }
func (s *Server) handleListCards(rc *reqCtx)       { s.notFoundRoute(rc) }
func (s *Server) handleIssueCard(rc *reqCtx)       { s.notFoundRoute(rc) }
func (s *Server) handleGetCard(rc *reqCtx)         { s.notFoundRoute(rc) }
func (s *Server) handleSecure(rc *reqCtx)          { s.notFoundRoute(rc) }
func (s *Server) handleWithdraw(rc *reqCtx)        { s.notFoundRoute(rc) }
func (s *Server) handleSpendLimits(rc *reqCtx)     { s.notFoundRoute(rc) }
func (s *Server) handleStatus(rc *reqCtx)          { s.notFoundRoute(rc) }
func (s *Server) handleContact(rc *reqCtx)         { s.notFoundRoute(rc) }
func (s *Server) handleSimulateWebhook(rc *reqCtx) { s.notFoundRoute(rc) }
func (s *Server) handleGiftQuote(rc *reqCtx)       { s.notFoundRoute(rc) }
func (s *Server) handleGiftPurchase(rc *reqCtx)    { s.notFoundRoute(rc) }
func (s *Server) handleGiftVerify(rc *reqCtx)      { s.notFoundRoute(rc) }
func (s *Server) handleGiftLookup(rc *reqCtx)      { s.notFoundRoute(rc) }
func (s *Server) handleBettingQuote(rc *reqCtx)    { s.notFoundRoute(rc) }
func (s *Server) serveControls(w http.ResponseWriter, r *http.Request, rest string) {
	s.notFoundRoute(&reqCtx{w: w, r: r, path: r.URL.Path, now: s.clk.Now()})
}
