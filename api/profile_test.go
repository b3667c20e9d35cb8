package api

import (
	"os"
	"path/filepath"
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
