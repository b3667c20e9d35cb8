package result

import (
	"regexp"
	"sort"
)

// reqID is the form of a requirement ID label (AREA-NN).
var reqID = regexp.MustCompile(`^[A-Z]+-[0-9]+$`)

// addRequirementIDs adds the requirement IDs among labels to set.
func addRequirementIDs(set map[string]bool, labels []string) map[string]bool {
	for _, l := range labels {
		if reqID.MatchString(l) {
			set[l] = true
		}
	}
	return set
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
