package api

import (
	"os"
	"path/filepath"
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
	if p.Cards.WithdrawVaultCredit != "amount-minus-fee" || p.Issuance.Path != "/cards" || p.Customers.Fields["street"] != "address" {
		t.Fatalf("defaults lost by the overlay: %+v %+v", p.Cards, p.Issuance)
	}
}

func TestProfileRejectsBadValues(t *testing.T) {
	for name, body := range map[string]string{
		"fee rule":   "cards:\n  withdrawVaultCredit: sometimes\n",
		"limit":      "cards:\n  listMaxLimit: 10\n",
		"not yaml":   "cards: [\n",
		"issue path": "issuance:\n  path: \"\"\n",
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
