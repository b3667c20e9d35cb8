package framework

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// CardTableFields are the fields of the document's Card table.
var CardTableFields = []string{"id", "cardType", "cardBrand", "maskedPan", "nameOnCard", "balanceAmount", "currency",
	"status", "createdStatus", "reference", "billingAddress", "colorTheme", "createdAt", "updatedAt"}

// ExpectCardFields checks what the schema cannot, when the profile asks for
// the strict readings: createdStatus COMPLETED (strict.createdStatusCompleted:
// "COMPLETED is the only value shown. Transitions of createdStatus: not
// shown", so other values are open by default), every field of the Card
// table present and non-null (strict.allCardFields) and a 16-position
// maskedPan (strict.maskedPan16).
func ExpectCardFields(obj JSON) {
	GinkgoHelper()
	if Profile().Strict.CreatedStatusCompleted {
		Expect(obj["createdStatus"]).To(Equal("COMPLETED"), "createdStatus: COMPLETED is the only value the document shows (profile strict.createdStatusCompleted)")
	}
	if Profile().Strict.AllCardFields {
		for _, f := range CardTableFields {
			Expect(obj[f]).NotTo(BeNil(), "Card.%s is absent or null (profile strict.allCardFields)", f)
		}
	}
	ExpectMaskedPan16(obj)
}

// ExpectMaskedPan16 asserts a 16-position maskedPan when the profile asks for
// that strict reading (strict.maskedPan16); the document's example has 16.
func ExpectMaskedPan16(obj JSON) {
	GinkgoHelper()
	if mp, _ := obj["maskedPan"].(string); Profile().Strict.MaskedPan16 && mp != "" {
		n := 0
		for _, r := range mp {
			if r != ' ' {
				n++
			}
		}
		Expect(n).To(Equal(16), "maskedPan %q does not have 16 positions (profile strict.maskedPan16)", mp)
	}
}

// panNeverCame is set once a card showed no maskedPan within
// cards.creationWait: the target may not show one at all, so later cards
// are not waited for again.
var panNeverCame atomic.Bool

// AwaitMaskedPan returns the card read again until it shows a maskedPan,
// within cards.creationWait (its presence is not stated, and a card may be
// created before its processor assigns the PAN); it may return without one.
func AwaitMaskedPan(ctx context.Context, c Card) Card {
	GinkgoHelper()
	deadline := time.Now().Add(Timeouts().CardCreation)
	for c.MaskedPan == "" && !panNeverCame.Load() {
		if !time.Now().Before(deadline) {
			panNeverCame.Store(true)
			break
		}
		select {
		case <-ctx.Done():
			HarnessError("interrupted while waiting for the card's maskedPan")
		case <-time.After(Timeouts().FreshPoll):
		}
		fresh := GetCard(ctx, c.ID)
		c.MaskedPan, c.Raw = fresh.MaskedPan, fresh.Raw
	}
	return c
}

// WithMaskedPan is AwaitMaskedPan for a spec that cannot judge without the
// maskedPan: without one it reaches no verdict.
func WithMaskedPan(ctx context.Context, c Card) Card {
	GinkgoHelper()
	if c = AwaitMaskedPan(ctx, c); c.MaskedPan == "" {
		NoVerdict(fmt.Sprintf("card %s shows no maskedPan within %s (profile cards.creationWait; its presence is not stated)", c.ID, Timeouts().CardCreation))
	}
	return c
}
