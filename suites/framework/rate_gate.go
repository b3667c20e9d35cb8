package framework

import (
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/target"
)

// rateGate paces every client of this process under the rate limits the
// target shows (client.Gate). Its waits end before the run's deadline: the
// --deadline, else Ginkgo's suite timeout (one hour by default).
var rateGate *client.Gate

func newRateGate(cfg *target.Config) *client.Gate {
	deadline := time.Time{}
	if d := runDeadline.Load(); d != nil {
		deadline = *d
	} else if sc, _ := GinkgoConfiguration(); sc.Timeout > 0 {
		deadline = time.Now().Add(sc.Timeout)
	}
	return client.NewGate(client.GateOptions{Deadline: deadline, MaxWait: cfg.RetryAfterMax, Logf: clientLogf})
}

// referenceFields are the body fields carrying a merchant reference (the
// profile's issuance and gift purchase names): a POST carrying one may be
// resent after a 429, the reference making a second attempt a duplicate.
func referenceFields(cfg *target.Config) []string {
	out := []string{"reference"}
	if p := cfg.Profile; p != nil {
		for _, f := range []string{p.Issuance.ReferenceField, p.GiftCards.Purchase.Fields["reference"]} {
			if f != "" && f != "reference" {
				out = append(out, f)
			}
		}
	}
	return out
}
