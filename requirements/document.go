package requirements

import (
	_ "embed"
	"strings"
	"unicode"
)

// documentMD is a copy of the API document (../shared/merchant-payments-api.md
// beside the repository), embedded so that every quote of the catalogue and
// of the open points is checked against the words it claims to cite. A test
// fails when the copy is stale.
//
//go:embed merchant-payments-api.md
var documentMD string

// Document returns the embedded copy of the API document.
func Document() string { return documentMD }

var normalisedDocument = Normalise(documentMD)

// Normalise collapses every run of white space into one space and trims
// the ends: a quote may break lines where the document does not.
func Normalise(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// InDocument reports whether phrase occurs verbatim in the document, white
// space normalised. An empty phrase is never in it.
func InDocument(phrase string) bool {
	p := Normalise(phrase)
	return p != "" && strings.Contains(normalisedDocument, p)
}
