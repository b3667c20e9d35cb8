package sandbox

import (
	"time"
)

// Probes of the faults of faults_transactions.go: each returns true when it
// observes the violated rule.
var _ = addProbes(map[string]func(h *sbx) bool{
	"limits-echo-cents": func(h *sbx) bool {
		tok, id := setupCard(h, "1")
		return h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":25.5}`).want(200).num("data.spendLimits.transactionLimit") == "2550"
	},
	"limits-card-id-as-addressed": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		c := h.card(tok, h.customer(tok), "1")
		return h.api("PUT", "/cards/"+c.s("data.reference")+"/spend-limits", tok, `{"dailyLimit":5}`).want(200).s("data.cardId") != c.s("data.id")
	},
	"card-frozen-approves": func(h *sbx) bool {
		tok := h.token(alpha, alphaTest)
		id := h.card(tok, h.customer(tok), "2").s("data.id")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		return h.ctl("POST", "/cards/"+id+"/transactions", `{"amount":1}`).want(200).get("approved") == true
	},
	"limit-alltime-resets-monthly": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"allTimeLimit":3}`).want(200)
		txnApproved(h, id, "3")
		h.fake.Advance(31 * 24 * time.Hour)
		return txnApproved(h, id, "1")
	},
	"limit-at-limit-declined": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":1}`).want(200)
		return !txnApproved(h, id, "1")
	},
	"limit-daily-never-resets": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":3}`).want(200)
		txnApproved(h, id, "3")
		h.fake.Advance(24 * time.Hour)
		return !txnApproved(h, id, "1")
	},
	"limit-daily-not-cumulative": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"dailyLimit":3}`).want(200)
		txnApproved(h, id, "2")
		return txnApproved(h, id, "2")
	},
	"limit-monthly-not-cumulative": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"monthlyLimit":3}`).want(200)
		txnApproved(h, id, "2")
		return txnApproved(h, id, "2")
	},
	"limit-alltime-not-cumulative": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"allTimeLimit":3}`).want(200)
		txnApproved(h, id, "2")
		return txnApproved(h, id, "2")
	},
	"limits-echo-wrong": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		return h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":3}`).want(200).num("data.spendLimits.transactionLimit") != "3.00"
	},
	"limits-not-applied": func(h *sbx) bool {
		tok, id := setupCard(h, "10")
		h.api("PUT", "/cards/"+id+"/spend-limits", tok, `{"transactionLimit":1}`).want(200)
		return txnApproved(h, id, "2")
	},
	"txn-frozen-decline-debits": func(h *sbx) bool {
		tok, id := setupCard(h, "5")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		txnApproved(h, id, "1")
		return h.api("GET", "/cards/"+id, tok, nil).num("data.balanceAmount") != "5.00"
	},
	"txn-approved-not-debited": func(h *sbx) bool {
		tok, id := setupCard(h, "5")
		txnApproved(h, id, "1")
		return h.api("GET", "/cards/"+id, tok, nil).want(200).num("data.balanceAmount") != "4.00"
	},
	"txn-unfreeze-still-declines": func(h *sbx) bool {
		tok, id := setupCard(h, "5")
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"FROZEN"}`).want(200)
		h.api("PATCH", "/cards/"+id+"/status", tok, `{"status":"ACTIVE"}`).want(200)
		return !txnApproved(h, id, "1")
	},
})
