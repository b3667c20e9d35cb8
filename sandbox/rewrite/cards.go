package rewrite

import (
	"net/http"

	"github.com/merchant-harness/mph/sandbox/variant"
)

// unsetLimitsAbsent drops the unset limits of a PUT answer
// (spend-limits-unset-absent).
func (s *Rewriter) unsetLimitsAbsent(r *http.Request, top map[string]any) {
	if !s.variants.On(variant.LimitsUnsetAbsent) || r.Method != http.MethodPut {
		return
	}
	d, _ := top["data"].(map[string]any)
	if l, ok := d["spendLimits"].(map[string]any); ok {
		for k, v := range l {
			if v == nil {
				delete(l, k)
			}
		}
	}
}
