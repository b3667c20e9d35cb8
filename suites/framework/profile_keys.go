package framework

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
)

// NeedDetermined ends the spec without a verdict when a profile key it
// depends on is listed as undetermined (mph profile discover could not
// settle it): judging by a default the target may not share would be a
// guess. A listed section covers its keys, and a listed key its section.
func NeedDetermined(keys ...string) {
	GinkgoHelper()
	for _, k := range keys {
		for _, u := range Profile().Undetermined {
			if u == k || strings.HasPrefix(k, u+".") || strings.HasPrefix(u, k+".") {
				NoVerdict(fmt.Sprintf("profile key %s is undetermined (mph profile discover could not settle it); this spec depends on it", u))
			}
		}
	}
}
