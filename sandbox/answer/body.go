package answer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"regexp"
	"strings"

	"github.com/merchant-harness/mph/sandbox/fault"
	"github.com/merchant-harness/mph/sandbox/validate"
	"github.com/merchant-harness/mph/sandbox/variant"
	"github.com/merchant-harness/mph/sandbox/wording"
)

// MaxBody is the request body limit; larger bodies get 413.
const MaxBody = 64 << 10

// ReadBody reads and decodes a JSON object body, answering 400/413 itself.
// An empty body is an empty object: the field rules then report what is missing.
func (q *Req) ReadBody() (validate.Body, bool) {
	r := q.R
	if r.ContentLength > MaxBody {
		q.Error(http.StatusRequestEntityTooLarge, wording.TooLarge)
		return nil, false
	}
	raw, err := io.ReadAll(http.MaxBytesReader(q.W, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			q.Error(http.StatusRequestEntityTooLarge, wording.TooLarge)
		} else {
			q.Error(http.StatusBadRequest, "Could not read the request body")
		}
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	if q.out.variants.On(variant.NullBodyNoop) && string(raw) == "null" {
		raw = nil
	}
	if len(raw) == 0 {
		return validate.Body{}, true
	}
	if !IsJSON(r.Header.Get("Content-Type")) && !q.out.variants.On(variant.CTAnyParsed) {
		q.Error(http.StatusBadRequest, wording.ContentType)
		return nil, false
	}
	if raw[0] != '{' {
		if json.Valid(raw) {
			q.Error(http.StatusBadRequest, wording.NotObject)
		} else {
			q.Error(q.out.malformedStatus(), wording.MalformedJSON)
		}
		return nil, false
	}
	var b validate.Body
	if err := json.Unmarshal(raw, &b); err != nil {
		q.Error(q.out.malformedStatus(), wording.MalformedJSON)
		return nil, false
	}
	q.out.unquoteNumbers(b)
	return b, true
}

// malformedStatus is 400, or 422 under the fault malformed-json-422.
func (o *Writer) malformedStatus() int {
	if o.faults.On(fault.MalformedJSON422) {
		return http.StatusUnprocessableEntity
	}
	return http.StatusBadRequest
}

// IsJSON reports whether ct is application/json, parameters aside.
func IsJSON(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.EqualFold(strings.TrimSpace(ct), "application/json")
}

// Invalid answers 400 with the messages v collected, if any.
func (q *Req) Invalid(v *validate.Fields) bool {
	if len(v.Errs()) == 0 {
		return false
	}
	q.BadRequest(v.Errs())
	return true
}

// numericFields are the members whose numeric strings numeric-strings-accepted reads.
var numericFields = []string{"amount", "transactionLimit", "dailyLimit", "monthlyLimit", "allTimeLimit"}

var numericString = regexp.MustCompile(`^"-?[0-9]+(\.[0-9]+)?"$`)

// unquoteNumbers turns numeric strings of amount members into numbers
// (numeric-strings-accepted) and rounds them to the cent
// (amounts-rounded-to-cents).
func (o *Writer) unquoteNumbers(b validate.Body) {
	for _, f := range numericFields {
		r, ok := b[f]
		if ok && o.variants.On(variant.NumericStrings) && numericString.Match(r) {
			r = r[1 : len(r)-1]
			b[f] = r
		}
		if ok && o.variants.On(variant.AmountsRounded) {
			if x, exact := new(big.Rat).SetString(string(r)); exact && !x.IsInt() {
				b[f] = json.RawMessage(x.FloatString(2))
			}
		}
	}
}
