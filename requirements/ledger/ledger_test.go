package ledger

import (
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

var updateLedger = flag.Bool("update-ledger", false, "rewrite docs/ledger.md from the catalogue, the open points, the schemas and the suites")

// TestLedgerIsCurrent keeps docs/ledger.md equal to what its sources say.
func TestLedgerIsCurrent(t *testing.T) {
	root, err := modroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Build(root)
	if err != nil {
		t.Fatal(err)
	}
	got := l.Markdown()
	path := filepath.Join(root, "docs", "ledger.md")
	if *updateLedger {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go test ./requirements/ledger -update-ledger", err)
	}
	if string(want) != got {
		t.Fatal("docs/ledger.md is stale: run go test ./requirements/ledger -update-ledger")
	}
}

// Every spec of the inventory is found in the sources: the profile-key
// scan sees every spec.
func TestScanFindsEverySpec(t *testing.T) {
	root, err := modroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Build(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Specs) < 200 {
		t.Fatalf("%d specs in the inventory", len(l.Specs))
	}
	ids := make([]string, len(l.Specs))
	for i, s := range l.Specs {
		ids[i] = s.ID
	}
	keys, err := SpecProfileKeys(ids, SuiteDirs(root)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, ok := keys[id]; !ok {
			t.Errorf("spec %s of the inventory not found in the sources", id)
		}
	}
}

func TestDirectKeys(t *testing.T) {
	src := `package p
func f() {
	_ = Profile().Cards.ListMaxLimit
	if Profile().Strict.AllCardFields {}
	g := Profile().GiftCards
	_ = g.Quote.TotalIsSum
	_ = Profile().Errors.Status["withdrawAboveBalance"]
	_ = Profile().Customers.Fields[name]
	_ = other().Cards.ListMaxLimit
	_ = Profile().Issuance.Path + Profile().NoSuchField.X
}`
	f, err := parser.ParseFile(fset(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, k := range directKeys(f) {
		got[k] = true
	}
	want := map[string]bool{
		"cards.listMaxLimit": true, "strict.allCardFields": true, "giftCards": true,
		"giftCards.quote.totalIsSum": true, "errors.status.withdrawAboveBalance": true,
		"customers.fields": true, "issuance.path": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("directKeys:\n got  %v\n want %v", got, want)
	}
}

func TestTransitiveKeys(t *testing.T) {
	dir := t.TempDir()
	src := `package p
var _ = ConformanceIt("a", SpecID("x.direct"), func() { _ = Profile().Cards.SameStatus })
var _ = ConformanceIt("b", SpecID("x.helper"), func() { helper() })
var _ = ConformanceTable("t", func(r row) { _ = Profile().Auth.MerchantIDHeader },
	ConformanceEntry("c", SpecID("x.entry"), row{}, func() { var c card; c.method() }),
	wrapped("d", "x.wrapped", Profile().Cards.ListMaxLimit))
var rules = []struct{ id SpecID }{{"x.listed"}}
var _ = func() bool {
	for _, f := range []string{"A", "B"} {
		ConformanceIt("e", SpecID("x.loop-"+strings.ToLower(f)), func() { _ = Profile().Betting.Quote.TotalIsSum })
	}
	return true
}()
func wrapped(text string, id SpecID, n int) TableRule { return ConformanceEntry(text, id, func() { _ = Profile().Issuance.Path }) }
func helper() { deeper() }
func deeper() { _ = Profile().Webhooks.DeliveryWait; helper() }
func (card) method() { _ = Profile().Strict.MaskedPan16 }
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	keys, err := SpecProfileKeys([]string{"x.direct", "x.helper", "x.entry", "x.wrapped", "x.listed", "x.loop-a", "x.loop-b", "x.absent"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"x.direct": {"cards.sameStatus"},
		"x.helper": {"webhooks.deliveryWait"},
		"x.entry":  {"auth.merchantIdHeader", "strict.maskedPan16"},
		// a helper's literal ID: its call's arguments, its body and the table's
		"x.wrapped": {"auth.merchantIdHeader", "cards.listMaxLimit", "issuance.path"},
		// an ID in a table of rules: its whole file
		"x.listed": {"auth.merchantIdHeader", "betting.quote.totalIsSum", "cards.listMaxLimit", "cards.sameStatus", "issuance.path", "strict.maskedPan16", "webhooks.deliveryWait"},
		// IDs built in a loop: the declaration with the longest literal prefix
		"x.loop-a": {"betting.quote.totalIsSum"},
		"x.loop-b": {"betting.quote.totalIsSum"},
	}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("SpecProfileKeys:\n got  %v\n want %v", keys, want)
	}
}

func TestProfileKeysOfDropsCoveredSections(t *testing.T) {
	got := profileKeysOf([]Spec{{ProfileKeys: []string{"giftCards", "giftCards.quote.totalIsSum"}}, {ProfileKeys: []string{"strict.envelopePath"}}})
	want := []string{"giftCards.quote.totalIsSum", "strict.envelopePath"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func fset() *token.FileSet { return token.NewFileSet() }
