package suites

// The specs register themselves with Ginkgo when their room is initialised:
// importing suites registers every room's specs, each exactly once.
import (
	_ "github.com/merchant-harness/mph/suites/access" // auth, errors, envelopes, rate limits, malformed requests, tenant isolation, webhooks
	_ "github.com/merchant-harness/mph/suites/cards"  // issuance, listing, get, secure, status, contact, addressing, configuration, customers
	_ "github.com/merchant-harness/mph/suites/cross"  // the cross-cutting rules, one cell per endpoint
	_ "github.com/merchant-harness/mph/suites/funds"  // limits, withdrawals, transactions, the model of a card's money
	_ "github.com/merchant-harness/mph/suites/gifts"  // gift cards and quotes
)
