package loadreport

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/merchant-harness/mph/loadtest/summary"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/report"
)

// Redact redacts and escapes every string of the report (values and
// map keys: error strings are keys of the per-endpoint error counts) before
// summary.json, summary.md and report.html are rendered from it. Target
// text reaches a report through error strings, notes and probe findings; the
// target URL may carry a password. Base64 HDR histograms are data, kept.
func Redact(r *summary.Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	doc, err := report.DecodeJSON(b)
	if err != nil {
		return err
	}
	b, err = json.Marshal(safeStrings("", doc))
	if err != nil {
		return err
	}
	var out summary.Report
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	*r = out
	return nil
}

func safeStrings(key string, v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			sk, sx := redact.Safe(k), safeStrings(k, x)
			if prev, ok := out[sk].(json.Number); ok {
				sx = addCounts(prev, sx) // two error strings that differed only by a secret
			}
			out[sk] = sx
		}
		return out
	case []any:
		for i, x := range t {
			t[i] = safeStrings(key, x)
		}
	case string:
		if strings.HasPrefix(key, "hdr") {
			return t
		}
		return redact.Safe(t)
	}
	return v
}

func addCounts(a json.Number, b any) any {
	bn, ok := b.(json.Number)
	x, err1 := a.Int64()
	y, err2 := bn.Int64()
	if !ok || err1 != nil || err2 != nil {
		return b
	}
	return json.Number(strconv.FormatInt(x+y, 10))
}
