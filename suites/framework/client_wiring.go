package framework

import (
	"time"

	. "github.com/onsi/ginkgo/v2"

	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/config"
)

func newRateGate(cfg *config.Config) *client.Gate {
	nameCredentials(cfg)
	deadline := time.Time{}
	if d := h.deadline.Load(); d != nil {
		deadline = *d
	} else if sc, _ := GinkgoConfiguration(); sc.Timeout > 0 {
		deadline = time.Now().Add(sc.Timeout)
	}
	return client.NewGate(client.GateOptions{Deadline: deadline, MaxWait: cfg.RetryAfterMax, Logf: clientLogf})
}

// referenceFields are the body fields carrying a merchant reference (the
// profile's issuance and gift purchase names): a POST carrying one may be
// resent after a 429, the reference making a second attempt a duplicate.
func referenceFields(cfg *config.Config) []string {
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

// nameCredentials tells the reproduce lines the README's variables of each
// set of credentials (MPH_MERCHANT2_ID, MPH_SECRET_KEY2, ...).
func nameCredentials(cfg *config.Config) {
	for _, c := range []struct {
		cr      *config.Credentials
		id, key string
	}{
		{&cfg.Primary, config.EnvMerchantID, config.EnvSecretKey},
		{cfg.Secondary, config.EnvMerchant2ID, config.EnvSecretKey2},
		{cfg.LiveTier2, config.EnvLiveMerchantID, config.EnvLiveSecretKey},
		{cfg.LiveLowKYB, config.EnvLowKYBMerchantID, config.EnvLowKYBSecretKey},
		{cfg.NotWhitelisted, config.EnvBlockedMerchantID, config.EnvBlockedSecretKey},
	} {
		if c.cr.Set() {
			client.NameCredentials(c.cr.MerchantID, c.cr.SecretKey, c.id, c.key)
		}
	}
}
