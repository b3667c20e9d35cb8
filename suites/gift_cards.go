package suites

import (
	"net/http"
	"reflect"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/schemas"
	. "github.com/merchant-harness/mph/suites/framework"
)

// giftOrderRule asserts one rule of a verified order body of the purchase o.
type giftOrderRule func(body JSON, o giftOrder)

// The rules of a fulfilled order, one per requirement; expectFulfilled
// applies them all, the table of the first spec below one per entry.
var (
	giftOrderIdentity giftOrderRule = func(body JSON, o giftOrder) {
		GinkgoHelper()
		Expect(body["status"]).To(Equal("success"))
		if o.Reference != "" {
			Expect(body["reference"]).To(Equal(o.Reference), "reference is the client order reference")
		}
		Expect(body["transactionId"]).To(BeAssignableToTypeOf(""), "transactionId is a string")
		if o.TransactionID != "" {
			Expect(body["transactionId"]).To(Equal(o.TransactionID), "transactionId is the order's internal transaction id")
		}
		if pc := Profile().GiftCards.ProductCode; pc != "" && Profile().GiftCards.Purchase.Fields["productCode"] != "" {
			Expect(body["productCode"]).To(Equal(pc), "productCode is the purchased product")
		}
	}
	giftOrderAmounts giftOrderRule = func(body JSON, o giftOrder) {
		GinkgoHelper()
		Expect(ExpectMoney(body["faceValue"], "faceValue")).To(EqualMoney(o.FaceValue), "faceValue is the purchased face value")
		Expect(ExpectMoney(body["costNgn"], "costNgn").Cmp(M("0"))).To(BeNumerically(">", 0), "costNgn is the (positive) NGN charge")
	}
	giftOrderVoucherRecipient giftOrderRule = func(body JSON, o giftOrder) {
		GinkgoHelper()
		Expect(body["voucher"]).To(BeAssignableToTypeOf(JSON{}), "the order carries a voucher object")
		r, _ := body["recipient"].(JSON)
		Expect(r).To(HaveKeyWithValue("email", o.Email), "recipient.email is the purchase's recipientEmail")
		Expect(r).To(HaveKeyWithValue("name", o.Name), "recipient.name is the purchase's recipientName")
	}
	giftOrderFulfilment giftOrderRule = func(body JSON, _ giftOrder) {
		GinkgoHelper()
		Expect(body["orderStatus"]).To(BeAssignableToTypeOf(""), "orderStatus is a string")
		Expect(body["isSuccessful"]).To(BeAssignableToTypeOf(true), "isSuccessful is a boolean")
		if body["orderStatus"] == "SUCCESS" {
			Expect(body["isSuccessful"]).To(BeTrue(), "a fulfilled (SUCCESS) order has isSuccessful true")
		}
	}
	giftOrderEnvironment giftOrderRule = func(body JSON, _ giftOrder) {
		GinkgoHelper()
		Expect(body["environment"]).To(Equal(Environment()), "environment is that of the credentials")
	}
	giftOrderReconciled giftOrderRule = func(body JSON, _ giftOrder) {
		GinkgoHelper()
		Expect(body["orderStatus"]).To(Equal("SUCCESS"), "verify reconciles the order to SUCCESS")
		Expect(body["isSuccessful"]).To(BeTrue(), "a fulfilled order has isSuccessful true")
		v, _ := body["voucher"].(JSON)
		Expect(v).NotTo(BeNil(), "the order carries a voucher")
		for _, k := range []string{"code", "pin"} {
			s, ok := v[k].(string) // not printed: voucher codes and PINs are secrets
			Expect(ok && s != "").To(BeTrue(), "the fulfilled order must carry the unlocked voucher.%s as a non-empty string", k)
		}
	}
)

// expectFulfilled asserts a verified order of o is fulfilled: SUCCESS,
// isSuccessful, voucher code and PIN unlocked, and the order's documented
// fields agree with the purchase.
func expectFulfilled(body JSON, o giftOrder) {
	GinkgoHelper()
	for _, rule := range []giftOrderRule{giftOrderReconciled, giftOrderIdentity, giftOrderAmounts, giftOrderVoucherRecipient, giftOrderFulfilment, giftOrderEnvironment} {
		rule(body, o)
	}
}

// verifiedGiftOrder is a gift order purchased then verified until settled;
// the entries of the table each check their own part of the answers.
type verifiedGiftOrder struct {
	order    giftOrder
	answer   Answer // the last verify answer; zero when the purchase failed
	verified bool
}

func purchaseAndVerify(ctx SpecContext) verifiedGiftOrder {
	o := purchaseGiftAs(ctx, API(), false)
	v := verifiedGiftOrder{order: o}
	if o.Purchase.Status != http.StatusOK || o.Reference == "" {
		return v
	}
	g := Profile().GiftCards
	for i := 0; i < g.VerifyAttempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				HarnessError("interrupted while re-verifying a PROCESSING gift order")
			case <-time.After(Timeouts().GiftVerifyInterval):
			}
		}
		v.answer = ReadAnswer(verifyGift(ctx, API(), o.Reference), schemas.GiftOrderResponse)
		if v.answer.Body["orderStatus"] != "PROCESSING" {
			break
		}
	}
	v.verified = true
	return v
}

// giftOrderEntry is a table entry proving one rule of the verified order:
// no schema violation under the members it owns, then the rule itself.
func giftOrderEntry(text string, id SpecID, rule giftOrderRule, reqs ReqIDs, members ...string) TableRule {
	return ConformanceEntry(text, id, func(v verifiedGiftOrder) {
		GinkgoHelper()
		if !v.verified {
			HarnessError("fixture: the gift card purchase did not succeed (HTTP %d) or named no order reference", v.order.Purchase.Status)
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
		giftOrderEntry("gives status success, the client reference, transactionId, productCode, productName and currency as strings", "gift-cards.order-identity-strings",
			giftOrderIdentity, Reqs("GIFT-06"), "status", "reference", "transactionId", "productCode", "productName", "currency"),
		giftOrderEntry("gives faceValue, the purchased face value, and costNgn, the NGN charge, as numbers", "gift-cards.order-amounts-numbers",
			giftOrderAmounts, Reqs("GIFT-07"), "faceValue", "costNgn"),
		giftOrderEntry("gives a voucher of string code, pin, serialNumber and instructions, and the purchase's recipient email and name", "gift-cards.order-voucher-recipient",
			giftOrderVoucherRecipient, Reqs("GIFT-08"), "voucher", "recipient"),
		giftOrderEntry("gives orderStatus as a string and isSuccessful as a boolean, true when fulfilled", "gift-cards.order-fulfilment-fields",
			giftOrderFulfilment, Reqs("GIFT-09"), "orderStatus", "isSuccessful"),
		giftOrderEntry("gives the environment of the credentials and createdAt as an ISO 8601 UTC timestamp", "gift-cards.order-environment-created",
			giftOrderEnvironment, Reqs("GIFT-10", "ENV-06"), "environment", "createdAt"),
		giftOrderEntry("reconciles the order to SUCCESS with isSuccessful true and the unlocked simulated voucher code and PIN", "gift-cards.order-reconciled-voucher",
			giftOrderReconciled, Reqs("GIFT-11", "GIFT-19"), "voucher/code", "voucher/pin"),
	)
})

var _ = Describe(giftCards, func() {
	ConformanceIt("verifies an order by its internal transactionId as well as by its client reference: the same order", SpecID("gift-cards.verifies-order-internal"),
		Reqs("GIFT-12", "GIFT-05"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			o := purchaseGift(ctx)
			byRef := verifySettled(ctx, API(), o.Reference)
			txn, _ := byRef["transactionId"].(string)
			if o.TransactionID != "" {
				Expect(txn).To(Equal(o.TransactionID))
			}
			Expect(txn).NotTo(BeEmpty(), "the order carries its internal transactionId")
			byTxn := expectVerifiedOrder(verifyGift(ctx, API(), txn))
			Expect(byTxn["transactionId"]).To(Equal(txn))
			Expect(byTxn["reference"]).To(Equal(byRef["reference"]), "verify by transactionId finds the same order")
			expectFulfilled(byTxn, o)
		})

	// Each entry buys an order of its own: both measure the merchant's NGN balance.
	ConformanceTable("charges a purchase in NGN once",
		func(ctx SpecContext, rule func(SpecContext)) { rule(ctx) },
		Destructive, Serial, Needs(CapTestEnvironment, CapBalances),
		ConformanceEntry("debits the NGN test balance by the order's costNgn", SpecID("gift-cards.debits-ngn-test-balance"), func(ctx SpecContext) {
			before := ngnBalance(ctx)
			o := purchaseGift(ctx)
			afterPurchase := ngnBalance(ctx)
			first := verifySettled(ctx, API(), o.Reference)
			cost := ExpectMoney(first["costNgn"], "costNgn")
			Expect(afterPurchase.Cmp(before)).To(BeNumerically("<", 0), "the purchase is debited in NGN")
			Expect(before.Sub(ngnBalance(ctx))).To(EqualMoney(cost), "purchase and verify together debit exactly costNgn (%s) from the NGN balance", cost)
		}, Reqs("GIFT-03")),
		ConformanceEntry("never charges again when the order is verified again", SpecID("gift-cards.never-charges-again-order"), func(ctx SpecContext) {
			o := purchaseGift(ctx)
			first := verifySettled(ctx, API(), o.Reference)
			expectFulfilled(first, o)
			afterVerify := ngnBalance(ctx)
			second := expectVerifiedOrder(verifyGift(ctx, API(), o.Reference))
			Expect(ngnBalance(ctx)).To(EqualMoney(afterVerify), "a second verify must not charge again")
			Expect(ExpectMoney(second["costNgn"], "costNgn")).To(EqualMoney(ExpectMoney(first["costNgn"], "costNgn")))
			Expect(reflect.DeepEqual(second["voucher"], first["voucher"])).To(BeTrue(), "verifying again must return the same voucher (values not printed: they are secrets)")
		}, Reqs("GIFT-13")),
	)

	// Each entry holds an order of its own.
	ConformanceTable("reconciles an order only once its upstream reconciliation completes",
		func(ctx SpecContext, rule func(SpecContext, giftOrder)) {
			o := purchaseGift(ctx)
			holdGiftOrder(ctx, o.Reference, true)
			DeferCleanup(func(ctx SpecContext) { _ = Controls().HoldGiftOrder(ctx, o.Reference, false) })
			rule(ctx, o)
		},
		Destructive, Needs(CapTestEnvironment, CapGiftHold),
		ConformanceEntry("keeps a held order PROCESSING with isSuccessful false", SpecID("gift-cards.keeps-held-order-processing"), func(ctx SpecContext, o giftOrder) {
			held := expectVerifiedOrder(verifyGift(ctx, API(), o.Reference))
			Expect(held["orderStatus"]).To(Equal("PROCESSING"), "an order whose reconciliation has not completed stays PROCESSING")
			Expect(held["isSuccessful"]).To(BeFalse(), "an unfulfilled order has isSuccessful false")
		}, Reqs("GIFT-15")),
		ConformanceEntry("reconciles a held order to SUCCESS with the unlocked voucher once released", SpecID("gift-cards.reconciles-held-order-success"), func(ctx SpecContext, o giftOrder) {
			expectVerifiedOrder(verifyGift(ctx, API(), o.Reference))
			holdGiftOrder(ctx, o.Reference, false)
			expectFulfilled(verifySettled(ctx, API(), o.Reference), o)
		}, Reqs("GIFT-11")),
	)
})

var _ = Describe(giftCards, func() {
	ConformanceIt("looks an order up by its transaction reference: the purchase with voucher code, PIN and instructions", SpecID("gift-cards.looks-order-up-transaction"),
		Reqs("GIFT-17"), Destructive, Needs(CapTestEnvironment),
		func(ctx SpecContext) {
			o := purchaseGift(ctx)
			v := verifySettled(ctx, API(), o.Reference)
			expectFulfilled(v, o)
			txn, _ := v["transactionId"].(string)
			Expect(txn).NotTo(BeEmpty())
			resp := Must(API().Get(ctx, "/gift-cards/transactions/"+client.Seg(txn), nil))
			ExpectStatus(resp, http.StatusOK, http.StatusCreated) // the section fixes no status
			ExpectSchema(resp, schemas.GiftLookupResponse)
			p := Profile().GiftCards.LookupOrderPointer
			got, ok := Ptr(Decode(resp), p)
			order, _ := got.(JSON)
			Expect(ok && order != nil).To(BeTrue(), "the lookup answer carries no order object at %s (profile giftCards.lookupOrderPointer)", p)
			// The lookup's body is not shown: the voucher's members are where
			// the profile says (giftCards.lookupVoucher). The verified order's
			// voucher (unique codes) identifies the order asked for.
			want, _ := v["voucher"].(JSON)
			for _, k := range []string{"code", "pin", "instructions"} {
				ptr := Profile().GiftCards.LookupVoucher[k]
				got, found := Ptr(order, ptr)
				Expect(found).To(BeTrue(), "the lookup carries no voucher %s at %s (profile giftCards.lookupVoucher.%s)", k, ptr, k)
				// Compared without printing: voucher codes and PINs are secrets.
				Expect(got == want[k]).To(BeTrue(), "the lookup's voucher %s differs from the verified order's", k)
			}
		})

	unknown := Shared(func(ctx SpecContext) unknownGift {
		ref := Ref("nosuchgift")
		return unknownGift{ref: ref, resp: verifyGift(ctx, API(), ref)}
	})
	ConformanceTable("answers verify of an unknown reference with the gift 404",
		func(ctx SpecContext, rule func(unknownGift)) { rule(unknown(ctx)) },
		ConformanceEntry("answers 404 when no order matches", SpecID("gift-cards.answers-404-no-order"), func(u unknownGift) {
			ExpectStatus(u.resp, http.StatusNotFound)
		}, Reqs("GIFT-14", "ERR-10")),
		ConformanceEntry("carries statusCode 404, a message and error Not Found", SpecID("errors.carries-statuscode-404-message"), func(u unknownGift) {
			expectGiftNotFound(u.resp)
		}, Reqs("ERR-05")),
		ConformanceEntry("says in its message that the gift card order was not found, naming the reference", SpecID("errors.says-message-gift-card"), func(u unknownGift) {
			body, _ := ExpectSchema(u.resp, schemas.GiftNotFound).(JSON)
			expectSaysGiftOrderNotFound(body, u.ref)
		}, Reqs("ERR-19")),
	)

	ConformanceIt("answers a transaction lookup of an unknown reference with 404", SpecID("gift-cards.answers-transaction-lookup"),
		Reqs("GIFT-18", "ERR-10"),
		func(ctx SpecContext) {
			expectGiftNotFound(Must(API().Get(ctx, "/gift-cards/transactions/"+client.Seg(Ref("nosuchtxn")), nil)))
		})

	for _, missing := range []string{"amount", "recipientEmail", "recipientName"} {
		missing := missing
		ConformanceIt("refuses a purchase without "+missing+" with 400", SpecID("gift-cards.purchase-missing-"+strings.ToLower(missing)),
			Reqs("GIFT-02", "ERR-07", "ERR-01"), Needs(CapTestEnvironment),
			func(ctx SpecContext) {
				body := giftPurchaseBody(Ref("gift"))
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

// holdGiftOrder holds or releases an order's upstream reconciliation.
func holdGiftOrder(ctx SpecContext, reference string, hold bool) {
	GinkgoHelper()
	if err := Controls().HoldGiftOrder(ctx, reference, hold); err != nil {
		HarnessError("sandbox control gift-hold: %v", err)
	}
}
