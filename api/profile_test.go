package api

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestProfileOverlayKeepsDefaults(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.yaml")
	os.WriteFile(path, []byte("cards:\n  listMaxLimit: 200\ngiftCards:\n  productCode: STEAM_US\n"), 0o600)
	p, err := LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Cards.ListMaxLimit != 200 || p.GiftCards.ProductCode != "STEAM_US" {
		t.Fatalf("overlay not applied: %+v", p.Cards)
	}
	if p.Cards.WithdrawVaultCredit != "either" || p.Issuance.Path != "/cards" || p.Customers.Fields["street"] != "address" {
		t.Fatalf("defaults lost by the overlay: %+v %+v", p.Cards, p.Issuance)
	}
}

func TestProfileRejectsBadValues(t *testing.T) {
	for name, body := range map[string]string{
		"fee rule":         "cards:\n  withdrawVaultCredit: sometimes\n",
		"limit":            "cards:\n  listMaxLimit: 10\n",
		"not yaml":         "cards: [\n",
		"issue path":       "issuance:\n  path: \"\"\n",
		"card debit":       "cards:\n  withdrawCardDebit: amount-minus-fee\n",
		"fund fee":         "cards:\n  fundFeeUnit: percentage\n",
		"dispatched":       "webhooks:\n  dispatchedMeans: maybe\n",
		"envelope":         "rateLimits:\n  envelope: sometimes\n",
		"zone":             "cards:\n  spendLimitTimezone: Mars/Olympus\n",
		"freshness":        "cards:\n  listingFreshness: 0s\n",
		"name":             "testData:\n  nameMaxLength: 3\n",
		"probe":            "testData:\n  maxProbeAmount: lots\n",
		"domain":           "testData:\n  emailDomain: a@b\n",
		"undetermined key": "undetermined: [cards.listMaxLimt]\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.yaml")
			os.WriteFile(path, []byte(body), 0o600)
			if _, err := LoadProfile(path); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

func TestProfileRefusesUnknownKeys(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"webhooks:\n  deliveryWaitSeconds: 30\n", `"webhooks.deliveryWaitSeconds": did you mean "webhooks.deliveryWait"?`},
		{"strict:\n  allcardfields: true\n", `did you mean "strict.allCardFields"?`},
		{"card:\n  listMaxLimit: 60\n", `did you mean "cards"?`},
		{"errors:\n  status:\n    withdrawAboveBalanse: 422\n", `did you mean "errors.status.withdrawAboveBalance"?`},
		{"customers:\n  fields:\n    zip: postcode\n", `unknown profile key "customers.fields.zip"`},
	} {
		path := filepath.Join(t.TempDir(), "p.yaml")
		os.WriteFile(path, []byte(tc.body), 0o600)
		_, err := LoadProfile(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error containing %s", tc.body, err, tc.want)
		}
	}
	// Open maps take any key: the target's own body members and query parameters.
	path := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(path, []byte("issuance:\n  extra:\n    brand: VISA\ngiftCards:\n  quote:\n    params:\n      sku: \"{productCode}\"\n"), 0o600)
	if _, err := LoadProfile(path); err != nil {
		t.Fatalf("open maps refused: %v", err)
	}
}

// TestDefaultsAreTheLenientReadings: every key setting something the
// document leaves open defaults to the reading that accepts every server the
// document allows (GUIDE: "take it from the profile with the lenient reading
// as default"); the strict readings are choices a provider declares.
func TestDefaultsAreTheLenientReadings(t *testing.T) {
	p := DefaultProfile()
	for key, c := range map[string]struct{ got, want any }{
		"auth.merchantIdHeader":        {p.Auth.MerchantIDHeader, "either"},
		"issuance.initialBalance":      {p.Issuance.InitialBalance, "either"},
		"issuance.duplicateReference":  {p.Issuance.DuplicateReference, "either"},
		"cards.listMaxLimit":           {p.Cards.ListMaxLimit, 50},
		"cards.withdrawVaultCredit":    {p.Cards.WithdrawVaultCredit, "either"},
		"cards.withdrawCardDebit":      {p.Cards.WithdrawCardDebit, "either"},
		"cards.fundFeeUnit":            {p.Cards.FundFeeUnit, "either"},
		"cards.spendLimitTimezone":     {p.Cards.SpendLimitTimezone, ""},
		"cards.sameStatus":             {p.Cards.SameStatus, "any"},
		"giftCards.quote.totalIsSum":   {p.GiftCards.Quote.TotalIsSum, false},
		"giftCards.quote.holdsPrice":   {p.GiftCards.Quote.HoldsPrice, false},
		"betting.quote.totalIsSum":     {p.Betting.Quote.TotalIsSum, false},
		"webhooks.deliveryKindPointer": {p.Webhooks.DeliveryKindPointer, ""},
		"webhooks.dispatchedMeans":     {p.Webhooks.DispatchedMeans, "either"},
		"webhooks.callbackUrlMatch":    {p.Webhooks.CallbackURLMatch, "normalized"},
		"webhooks.signature.header":    {p.Webhooks.Signature.Header, ""},
		"rateLimits.envelope":          {p.RateLimits.Envelope, "optional"},
	} {
		if c.got != c.want {
			t.Errorf("%s defaults to %v, want the lenient %v", key, c.got, c.want)
		}
	}
	for k, st := range p.Errors.Status {
		if st != 0 {
			t.Errorf("errors.status.%s defaults to %d, want 0 (any 4xx)", k, st)
		}
	}
	for k, r := range p.Errors.Refuses {
		if r {
			t.Errorf("errors.refuses.%s defaults to true, want false", k)
		}
	}
	strict := reflect.ValueOf(p.Strict)
	for i := 0; i < strict.NumField(); i++ {
		if strict.Field(i).Bool() {
			t.Errorf("strict.%s defaults to true", strict.Type().Field(i).Name)
		}
	}
	if strings.Contains(string(DefaultProfileYAML()), "match the reference sandbox") {
		t.Error("the default profile's header still says its defaults match the reference sandbox")
	}
}

func TestProfileKeysOfTheGiftQuote(t *testing.T) {
	if _, err := ParseProfile([]byte("giftCards:\n  quote:\n    holdsPrice: true\n    totalPointer: /t\n")); err != nil {
		t.Errorf("giftCards.quote.holdsPrice refused: %v", err)
	}
	if _, err := ParseProfile([]byte("betting:\n  quote:\n    holdsPrice: true\n")); err == nil {
		t.Error("betting.quote.holdsPrice accepted: the betting quote is never bought")
	}
	p, err := ParseProfile([]byte("undetermined: [giftCards.quote.totalPointer, customers.fields.dateOfBirth]\n"))
	if err != nil || len(p.Undetermined) != 2 {
		t.Errorf("undetermined keys: %v %v", p, err)
	}
}
