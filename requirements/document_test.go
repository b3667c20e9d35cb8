package requirements

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/merchant-harness/mph/internal/modroot"
)

// The embedded copy is the document itself: a stale copy would let quotes
// cite words the document no longer has.
func TestDocumentCopyIsCurrent(t *testing.T) {
	root, err := modroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "..", "shared", "merchant-payments-api.md")
	want, err := os.ReadFile(src)
	if os.IsNotExist(err) {
		t.Skipf("no %s beside the repository: the embedded copy is not compared", src)
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, []byte(Document())) {
		t.Fatalf("requirements/merchant-payments-api.md is stale: copy %s over it, then re-check the quotes (go test ./requirements)", src)
	}
}

func TestInDocument(t *testing.T) {
	cases := map[string]bool{
		"Retry behaviour of deliveries: not shown.":      true,
		"Retry behaviour\n   of deliveries:  not shown.": true, // white space normalised
		"| cvv | string |":                      true,
		"retry behaviour of deliveries":         false, // case matters
		"Retry behaviour of deliveries: shown.": false,
		"":                                      false,
		"   ":                                   false,
	}
	for q, want := range cases {
		if got := InDocument(q); got != want {
			t.Errorf("InDocument(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestEveryRequirementQuotesTheDocument(t *testing.T) {
	for _, r := range All() {
		if len(r.Quote) == 0 {
			t.Errorf("%s: no quote", r.ID)
		}
		for _, q := range r.Quote {
			if !InDocument(q) {
				t.Errorf("%s: not the document's words: %q", r.ID, q)
			}
		}
	}
}

func TestValidateRejectsForeignQuotes(t *testing.T) {
	ok := Requirement{ID: "AUTH-01", Section: "s", Text: "t", Testable: true, Quote: []string{"Wrong credentials give 401."}}
	if err := Validate([]Requirement{ok}); err != nil {
		t.Fatalf("a quoted requirement is refused: %v", err)
	}
	for _, q := range [][]string{nil, {"Wrong credentials give 403."}, {"Wrong credentials give 401.", "made up"}} {
		bad := ok
		bad.Quote = q
		if Validate([]Requirement{bad}) == nil {
			t.Errorf("quote %q accepted", q)
		}
	}
}
