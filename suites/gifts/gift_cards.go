package gifts

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/expect"
	"github.com/merchant-harness/mph/suites/fixtures"
	. "github.com/merchant-harness/mph/suites/framework"
	. "github.com/merchant-harness/mph/suites/specsupport"
)

// giftOrderRule asserts one rule of a verified order body of the purchase o.
type giftOrderRule func(body JSON, o GiftOrder)

// The rules of a fulfilled order, one per requirement; expectFulfilled
// applies them all, the table of the first spec below one per entry. The
// order table lists its fields without saying which are always present
// (OPEN-GIFT-ORDER-PRESENCE): a member is judged where the answer gives it;
// what fulfilment states is required ("the response carries the unlocked
// voucher.code and voucher.pin").
var (
	giftOrderIdentity giftOrderRule = func(body JSON, o GiftOrder) {
		GinkgoHelper()
		if v, ok := body["status"]; ok {
			Expect(v).To(Equal("success"), "status is success")
		}
		if v, ok := body["reference"]; ok && o.Reference != "" {
			Expect(v).To(Equal(o.Reference), "reference is the client order reference")
		}
		if v, ok := body["transactionId"]; ok && v != nil {
			id, isID := IDString(v)
			Expect(isID).To(BeTrue(), "transactionId is a string (the internal transaction id), got %v", v)
			if o.TransactionID != "" {
				Expect(id).To(Equal(o.TransactionID), "transactionId is the order's internal transaction id, as the purchase answered it")
			}
		}
		if v, ok := body["productCode"]; ok && v != nil {
			if pc := Profile().GiftCards.ProductCode; pc != "" && Profile().GiftCards.Purchase.Fields["productCode"] != "" {
				Expect(v).To(Equal(pc), "productCode is the purchased product")
			}
		}
	}
	giftOrderAmounts giftOrderRule = func(body JSON, o GiftOrder) {
		GinkgoHelper()
		if v, ok := body["faceValue"]; ok {
			Expect(ExpectMoney(v, "faceValue")).To(EqualMoney(o.FaceValue), "faceValue is the purchased face value")
		}
		if v, ok := body["costNgn"]; ok {
			Expect(ExpectMoney(v, "costNgn").Cmp(M("0"))).To(BeNumerically(">", 0), "costNgn is the (positive) NGN charge")
		}
	}
	giftOrderVoucherRecipient giftOrderRule = func(body JSON, o GiftOrder) {
		GinkgoHelper()
		Expect(body["voucher"]).To(BeAssignableToTypeOf(JSON{}), "a fulfilled order carries its voucher (voucher | object)")
		r, _ := body["recipient"].(JSON)
		if r == nil {
			return // recipient | object: its presence is not stated
		}
		for k, sent := range map[string]string{"email": o.Email, "name": o.Name} {
			if v, ok := r[k].(string); ok {
				Expect(sameText(v, sent)).To(BeTrue(), "recipient.%s %q is not the purchase's %q", k, v, sent)
			}
		}
	}
	giftOrderFulfilment giftOrderRule = func(body JSON, _ GiftOrder) {
		GinkgoHelper()
		if v, ok := body["orderStatus"]; ok {
			Expect(v).To(BeAssignableToTypeOf(""), "orderStatus is a string")
		}
		if v, ok := body["isSuccessful"]; ok {
			Expect(v).To(BeAssignableToTypeOf(true), "isSuccessful is a boolean")
		}
		if body["orderStatus"] == "SUCCESS" {
			Expect(body["isSuccessful"]).NotTo(Equal(false), "a fulfilled (SUCCESS) order has isSuccessful true")
		}
	}
	giftOrderEnvironment giftOrderRule = func(body JSON, _ GiftOrder) {
		GinkgoHelper()
		if v, ok := body["environment"]; ok {
			Expect(v).To(Equal(Environment()), "environment is that of the credentials")
		}
	}
	giftOrderReconciled giftOrderRule = func(body JSON, _ GiftOrder) {
		GinkgoHelper()
		_, hasStatus := body["orderStatus"]
		_, hasFlag := body["isSuccessful"]
		Expect(hasStatus || hasFlag).To(BeTrue(), "the order says whether it is fulfilled (orderStatus or isSuccessful)")
		if hasStatus {
			Expect(body["orderStatus"]).To(Equal("SUCCESS"), "verify reconciles the order to SUCCESS")
		}
		if hasFlag {
			Expect(body["isSuccessful"]).To(BeTrue(), "a fulfilled order has isSuccessful true")
		}
		v, _ := body["voucher"].(JSON)
		Expect(v).NotTo(BeNil(), "the order carries a voucher")
		for _, k := range []string{"code", "pin"} {
			s, ok := v[k].(string) // not printed: voucher codes and PINs are secrets
			Expect(ok && s != "").To(BeTrue(), "the fulfilled order must carry the unlocked voucher.%s as a non-empty string", k)
		}
	}
)

// judgesSome makes an entry not applicable when the order gives none of
// the members it judges (their presence is not stated): it would assert
// nothing.
func judgesSome(body JSON, members ...string) {
	GinkgoHelper()
	for _, m := range members {
		if _, ok := body[m]; ok {
			return
		}
	}
	Skip(fmt.Sprintf("not applicable: the order carries none of %s (which members an order always carries is not shown)", strings.Join(members, ", ")))
}

// sameText compares two names or addresses as a server may store them:
// letter case and runs of white space aside.
func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// expectFulfilled asserts a verified order of o is fulfilled: SUCCESS,
// isSuccessful, voucher code and PIN unlocked, and the order's documented
// fields agree with the purchase where it gives them.
func expectFulfilled(body JSON, o GiftOrder) {
	GinkgoHelper()
	for _, rule := range []giftOrderRule{giftOrderReconciled, giftOrderIdentity, giftOrderAmounts, giftOrderVoucherRecipient, giftOrderFulfilment, giftOrderEnvironment} {
		rule(body, o)
	}
}

// verifiedGiftOrder is a gift order purchased then verified until settled;
// the entries of the table each check their own part of the answers.
type verifiedGiftOrder struct {
	order    GiftOrder
	answer   Answer // the last verify answer; zero when the purchase failed
	verified bool
}

func purchaseAndVerify(ctx SpecContext) verifiedGiftOrder {
	o := PurchaseGiftAs(ctx, API(), false)
	v := verifiedGiftOrder{order: o}
	if o.Purchase.Status != http.StatusOK || o.Reference == "" {
		return v
	}
	for i := 0; i < max(1, Profile().GiftCards.VerifyAttempts); i++ {
		if i > 0 {
			PauseGiftVerify(ctx)
		}
		v.answer = ReadAnswer(VerifyGift(ctx, API(), o.Reference), schemas.GiftOrderResponse)
		if GiftFulfilled(v.answer.Body) {
			break
		}
	}
	v.verified = true
	return v
}

// giftOrderEntry is a table entry proving one rule of the verified order:
// no schema violation under the members it owns, then the rule itself. An
// entry judging members whose presence is not stated (optional) is not
// applicable when the order carries none of them; one judging the
// fulfilled order gives no verdict while the order is not fulfilled within
// the profile's bound.
func giftOrderEntry(text string, id SpecID, rule giftOrderRule, reqs ReqIDs, optional bool, members ...string) TableRule {
	return ConformanceEntry(text, id, func(v verifiedGiftOrder) {
		GinkgoHelper()
		if !v.verified {
			HarnessError("fixture: the gift card purchase did not succeed (HTTP %d) or named no order reference", v.order.Purchase.Status)
		}
		if optional {
			judgesSome(v.answer.Body, members...)
		} else {
			if !GiftFulfilled(v.answer.Body) {
				GiftNotSettled(v.answer.Body)
			}
		}
		for _, m := range members {
			v.answer.ExpectNoViolationUnder("/" + m)
		}
		rule(v.answer.Body, v.order)
	}, reqs)
}

var giftOrderMembers = []string{"status", "reference", "transactionId", "productCode", "productName", "currency", "faceValue", "costNgn",
	"voucher", "recipient", "orderStatus", "isSuccessful", "environment", "createdAt"}

// giftCards is the container of this file's specs (Describe blocks of one text).
const giftCards = "Gift cards: purchase, verify, transaction lookup"

var _ = Describe(giftCards, func() {
	verified := Shared(purchaseAndVerify)
	ConformanceTable("purchases with 200, then verify answers the flat order reconciled to SUCCESS",
		func(ctx SpecContext, rule func(verifiedGiftOrder)) { rule(verified(ctx)) },
		Destructive, Needs(CapTestEnvironment),
		ConformanceEntry("answers a purchase with 200", SpecID("gift-cards.answers-purchase-200"), func(v verifiedGiftOrder) {
			ExpectStatus(v.order.Purchase, http.StatusOK)
			ExpectSchema(v.order.Purchase, schemas.GiftPurchaseResponse)
			if v.order.Reference == "" {
				HarnessError("the purchase answer names no order reference (profile giftCards.purchase.referencePointer)")
			}
		}, Reqs("GIFT-01")),
		ConformanceEntry("answers verify with 200 and the flat gift card order, no data member", SpecID("gift-cards.answers-verify-200-flat"), func(v verifiedGiftOrder) {
			if !v.verified {
				HarnessError("fixture: the gift card purchase did not succeed (HTTP %d) or named no order reference", v.order.Purchase.Status)
			}
			ExpectStatus(v.answer.Resp, http.StatusOK)
			ExpectJSONContentType(v.answer.Resp)
			Expect(v.answer.Body).NotTo(BeNil(), "the order is a JSON object")
			Expect(v.answer.Body).NotTo(HaveKey("data"), "gift order verification answers flat: no data member")
			owned := make([]string, 0, len(giftOrderMembers))
			for _, m := range giftOrderMembers {
				owned = append(owned, "/"+m)
			}
			v.answer.ExpectNoViolationOutside(owned...)
		}, Reqs("GIFT-05", "ENV-04")),
		giftOrderEntry("gives status success, the client reference, transactionId, productCode, productName and currency as strings, where it gives them", "gift-cards.order-identity-strings",
			giftOrderIdentity, Reqs("GIFT-06"), true, "status", "reference", "transactionId", "productCode", "productName", "currency"),
		giftOrderEntry("gives faceValue, the purchased face value, and costNgn, the NGN charge, as numbers, where it gives them", "gift-cards.order-amounts-numbers",
			giftOrderAmounts, Reqs("GIFT-07"), true, "faceValue", "costNgn"),
		giftOrderEntry("gives the voucher as an object of strings (code, pin, serialNumber, instructions) and, where it names the recipient, the purchase's recipient email and name", "gift-cards.order-voucher-recipient",
			giftOrderVoucherRecipient, Reqs("GIFT-08"), false, "voucher", "recipient"),
		giftOrderEntry("gives orderStatus as a string and isSuccessful as a boolean, true when fulfilled, where it gives them", "gift-cards.order-fulfilment-fields",
			giftOrderFulfilment, Reqs("GIFT-09"), true, "orderStatus", "isSuccessful"),
		giftOrderEntry("gives the environment of the credentials and createdAt as an ISO 8601 UTC timestamp, where it gives them", "gift-cards.order-environment-created",
			giftOrderEnvironment, Reqs("GIFT-10", "ENV-06"), true, "environment", "createdAt"),
		giftOrderEntry("reconciles the order to SUCCESS with isSuccessful true and the unlocked simulated voucher code and PIN", "gift-cards.order-reconciled-voucher",
			giftOrderReconciled, Reqs("GIFT-11", "GIFT-19"), false, "voucher/code", "voucher/pin"),
	)
})

var _ = Describe(giftCards, func() {
	ConformanceIt("verifies an order by its internal transaction reference as well as by its client reference: the same order", SpecID("gift-cards.verifies-order-internal"),
		Reqs("GIFT-12", "GIFT-05"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			o := PurchaseGift(ctx)
			byRef := VerifySettled(ctx, API(), o.Reference)
			txn := expectTransactionRef(ctx, GiftVerifyPath, byRef, o)
			byTxn := ExpectVerifiedOrder(VerifyGift(ctx, API(), txn))
			Expect(byTxn["reference"]).To(Equal(byRef["reference"]), "verify by the internal transaction reference finds the same order")
			expectFulfilled(byTxn, o)
		})

	// Each entry buys an order of its own: both measure the merchant's NGN balance.
	ConformanceTable("charges a purchase in NGN once",
		func(ctx SpecContext, rule func(SpecContext)) { rule(ctx) },
		Destructive, Serial, Needs(CapTestEnvironment, CapBalances),
		// When the charge leaves the balance (at purchase, or reserved
		// and taken at fulfilment) is not stated: purchase and
		// verification together debit it.
		ConformanceEntry("debits the NGN test balance by the order's costNgn", SpecID("gift-cards.debits-ngn-test-balance"), func(ctx SpecContext) {
			before := NGNBalance(ctx)
			o := PurchaseGift(ctx)
			first := VerifySettled(ctx, API(), o.Reference)
			cost := ExpectMoney(first["costNgn"], "costNgn")
			Expect(before.Sub(NGNBalance(ctx))).To(EqualMoney(cost), "purchase and verify together debit exactly costNgn (%s) from the NGN balance", cost)
		}, Reqs("GIFT-03")),
		ConformanceEntry("never charges again when the order is verified again", SpecID("gift-cards.never-charges-again-order"), func(ctx SpecContext) {
			o := PurchaseGift(ctx)
			first := VerifySettled(ctx, API(), o.Reference)
			expectFulfilled(first, o)
			afterVerify := NGNBalance(ctx)
			second := ExpectVerifiedOrder(VerifyGift(ctx, API(), o.Reference))
			Expect(NGNBalance(ctx)).To(EqualMoney(afterVerify), "a second verify must not charge again")
			if c, ok := second["costNgn"]; ok {
				Expect(ExpectMoney(c, "costNgn")).To(EqualMoney(ExpectMoney(first["costNgn"], "costNgn")), "the order's NGN charge is the same on every verify")
			}
			expectSameVoucher(second, first, "verifying again")
		}, Reqs("GIFT-13")),
	)

	// Each entry holds an order of its own.
	ConformanceTable("reconciles an order only once its upstream reconciliation completes",
		func(ctx SpecContext, rule func(SpecContext, GiftOrder)) {
			o := PurchaseGift(ctx)
			if GiftFulfilled(purchasedOrder(o)) {
				Skip("not applicable: the purchase answered the order fulfilled at once (\"Successful outcome is status 200 with voucher details\"): there is no reconciliation to hold")
			}
			holdGiftOrder(ctx, o.Reference, true)
			DeferCleanup(func(ctx SpecContext) { _ = Controls().HoldGiftOrder(ctx, o.Reference, false) })
			rule(ctx, o)
		},
		Destructive, Needs(CapTestEnvironment, CapGiftHold),
		// PROCESSING is the document's example of the state before
		// fulfilment ("e.g. SUCCESS, PROCESSING"; other values not shown):
		// a held order is anything but fulfilled.
		ConformanceEntry("keeps a held order unfulfilled: not SUCCESS, isSuccessful false", SpecID("gift-cards.keeps-held-order-processing"), func(ctx SpecContext, o GiftOrder) {
			held := ExpectVerifiedOrder(VerifyGift(ctx, API(), o.Reference))
			_, hasStatus := held["orderStatus"]
			_, hasFlag := held["isSuccessful"]
			NoVerdictUnless(hasStatus || hasFlag, "the held order's answer carries neither orderStatus nor isSuccessful: nothing says whether it is fulfilled")
			Expect(held["orderStatus"]).NotTo(Equal("SUCCESS"), "an order whose upstream reconciliation has not completed is not SUCCESS")
			Expect(held["isSuccessful"]).NotTo(Equal(true), "an order not fulfilled has isSuccessful false")
		}, Reqs("GIFT-15")),
		ConformanceEntry("reconciles a held order to SUCCESS with the unlocked voucher once released", SpecID("gift-cards.reconciles-held-order-success"), func(ctx SpecContext, o GiftOrder) {
			ExpectVerifiedOrder(VerifyGift(ctx, API(), o.Reference))
			holdGiftOrder(ctx, o.Reference, false)
			expectFulfilled(VerifySettled(ctx, API(), o.Reference), o)
		}, Reqs("GIFT-11")),
	)
})

var _ = Describe(giftCards, func() {
	ConformanceIt("looks an order up by its transaction reference: the purchase with voucher code, PIN and instructions", SpecID("gift-cards.looks-order-up-transaction"),
		Reqs("GIFT-17"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			o := PurchaseGift(ctx)
			v := VerifySettled(ctx, API(), o.Reference)
			expectFulfilled(v, o)
			txn := expectTransactionRef(ctx, GiftLookupPath, v, o)
			resp := Must(API().Get(ctx, string(GiftLookupPath)+client.Seg(txn), nil))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated) // the section fixes no status
			ExpectSchema(resp, schemas.GiftLookupResponse)
			p := Profile().GiftCards.LookupOrderPointer
			got, ok := Ptr(Decode(resp), p)
			order, _ := got.(JSON)
			Expect(ok && order != nil).To(BeTrue(), "the lookup answer carries no order object at %s (profile giftCards.lookupOrderPointer)", p)
			// The lookup's body is not shown: the voucher's members are where
			// the profile says (giftCards.lookupVoucher). The verified order's
			// code and PIN (unique) identify the order asked for; the
			// instructions are text whose stability is not stated.
			want, _ := v["voucher"].(JSON)
			for _, k := range []string{"code", "pin", "instructions"} {
				ptr := Profile().GiftCards.LookupVoucher[k]
				got, found := Ptr(order, ptr)
				Expect(found).To(BeTrue(), "the lookup carries no voucher %s at %s (profile giftCards.lookupVoucher.%s)", k, ptr, k)
				if k == "instructions" {
					Expect(got).To(BeAssignableToTypeOf(""), "the lookup's instructions are a string")
					continue
				}
				// Compared without printing: voucher codes and PINs are secrets.
				Expect(got == want[k]).To(BeTrue(), "the lookup's voucher %s differs from the verified order's", k)
			}
		})

	unknown := Shared(func(ctx SpecContext) unknownGift {
		ref := fixtures.Ref("nosuchgift")
		return unknownGift{ref: ref, resp: VerifyGift(ctx, API(), ref)}
	})
	ConformanceTable("answers verify of an unknown reference with the gift 404",
		func(ctx SpecContext, rule func(unknownGift)) { rule(unknown(ctx)) },
		ConformanceEntry("answers 404 when no order matches", SpecID("gift-cards.answers-404-no-order"), func(u unknownGift) {
			ExpectStatus(u.resp, http.StatusNotFound)
		}, Reqs("GIFT-14", "ERR-10")),
		ConformanceEntry("carries statusCode 404, a message and error Not Found", SpecID("errors.carries-statuscode-404-message"), func(u unknownGift) {
			ExpectGiftNotFound(u.resp)
		}, Reqs("ERR-05")),
		ConformanceEntry("says in its message that the gift card order was not found, naming the reference", SpecID("errors.says-message-gift-card"), func(u unknownGift) {
			body, _ := ExpectSchema(u.resp, schemas.GiftNotFound).(JSON)
			ExpectSaysGiftOrderNotFound(body, u.ref)
		}, Reqs("ERR-19")),
	)

	ConformanceIt("answers a transaction lookup of an unknown reference with 404", SpecID("gift-cards.answers-transaction-lookup"),
		Reqs("GIFT-18", "ERR-10"),
		func(ctx SpecContext) {
			ExpectGiftNotFound(Must(API().Get(ctx, "/gift-cards/transactions/"+client.Seg(fixtures.Ref("nosuchtxn")), nil)))
		})

	for _, missing := range []string{"amount", "recipientEmail", "recipientName"} {
		missing := missing
		ConformanceIt("refuses a purchase without "+missing+" with 400", SpecID("gift-cards.purchase-missing-"+strings.ToLower(missing)),
			Reqs("GIFT-02", "ERR-07", "ERR-01"), Needs(CapTestEnvironment),
			func(ctx SpecContext) {
				body := GiftPurchaseBody(fixtures.Ref("gift"))
				delete(body, missing)
				ExpectErrorWithPath(Must(API().Post(ctx, "/gift-cards/purchase", body)), http.StatusBadRequest)
			})
	}
})

// unknownGift is a verify of a reference no order matches.
type unknownGift struct {
	ref  string
	resp *client.Response
}

// purchasedOrder is the order a purchase answered (its fields are not
// shown): at the profile's giftCards.purchase.orderPointer, else the answer.
func purchasedOrder(o GiftOrder) JSON {
	doc := Decode(o.Purchase)
	if v, ok := Ptr(doc, Profile().GiftCards.Purchase.OrderPointer); ok {
		if m, ok := v.(JSON); ok {
			return m
		}
	}
	m, _ := doc.(JSON)
	return m
}

// expectSameVoucher asserts two answers give the order's voucher alike:
// its code and PIN (compared without printing: they are secrets). Its
// instructions and serial number are text whose stability is not stated.
func expectSameVoucher(got, want JSON, what string) {
	GinkgoHelper()
	g, _ := got["voucher"].(JSON)
	w, _ := want["voucher"].(JSON)
	Expect(g).NotTo(BeNil(), "%s: the answer carries no voucher", what)
	for _, k := range []string{"code", "pin"} {
		Expect(g[k] == w[k]).To(BeTrue(), "%s must return the same voucher %s (values not printed: they are secrets)", what, k)
	}
}

// expectTransactionRef finds the verified order's internal transaction
// reference at the endpoint (GiftTransactionRef) and fails when the order
// names candidates but none addresses it there; with no candidate at all
// there is nothing to judge.
func expectTransactionRef(ctx SpecContext, at GiftRefEndpoint, verified JSON, o GiftOrder) string {
	GinkgoHelper()
	cands := ReferenceCandidates(verified, o.Reference)
	NoVerdictUnless(len(cands) > 0, "the verified order carries no member that may be its internal transaction reference (transactionId or another string)")
	ref := GiftTransactionRef(ctx, API(), at, verified, o.Reference)
	Expect(ref).NotTo(BeEmpty(), "%s finds the order by none of its %d candidate members (transactionId first): no internal transaction reference addresses it", at, len(cands))
	return ref
}

// holdGiftOrder holds or releases an order's upstream reconciliation.
func holdGiftOrder(ctx SpecContext, reference string, hold bool) {
	GinkgoHelper()
	if err := Controls().HoldGiftOrder(ctx, reference, hold); err != nil {
		HarnessError("sandbox control gift-hold: %v", err)
	}
}
