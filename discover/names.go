package discover

import (
	"regexp"
	"sort"
	"strings"

	"github.com/merchant-harness/mph/client"
)

// Candidate wire names of the registration inputs whose names the document
// does not show, the default first. A refusal whose validation messages name
// a candidate (e.g. "dob should not be empty") switches to it.
var fieldCandidates = map[string][]string{
	"phoneCountryCode": {"phoneCountryCode", "countryCallingCode", "dialCode", "phonePrefix", "callingCode", "phone_country_code"},
	"dateOfBirth":      {"dateOfBirth", "dob", "birthDate", "date_of_birth"},
	"idType":           {"idType", "documentType", "identityType", "idDocumentType", "id_type"},
	"idNumber":         {"idNumber", "documentNumber", "identityNumber", "idDocumentNumber", "id_number"},
	"street":           {"address", "street", "addressLine1", "line1", "streetAddress"},
	"city":             {"city", "town"},
	"state":            {"state", "region", "province"},
	"postalCode":       {"postalCode", "zipCode", "zip", "postcode", "postal_code"},
	"country":          {"country", "countryCode", "country_code"},
}

// messages returns an answer's validation messages (string or array).
func messages(resp *client.Response) []string {
	m := resp.Map()
	switch v := m["message"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

var (
	wordRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_.]*`)
	// A message refusing a member the target does not know names a wrong name.
	unknownRe = regexp.MustCompile(`(?i)should not exist|not allowed|unknown|unexpected|not permitted|unrecognized`)
)

// renamed returns the field names with every logical field whose candidate a
// message names switched to it, and which fields changed.
func renamed(names map[string]string, msgs []string) (map[string]string, []string) {
	words := map[string]bool{}
	for _, m := range msgs {
		if unknownRe.MatchString(m) {
			continue
		}
		for _, w := range wordRe.FindAllString(m, -1) {
			words[w[strings.LastIndex(w, ".")+1:]] = true
		}
	}
	out := map[string]string{}
	var changed []string
	for logical, wire := range names {
		out[logical] = wire
		if words[wire] {
			continue
		}
		for _, c := range fieldCandidates[logical] {
			if c != wire && words[c] {
				out[logical] = c
				changed = append(changed, logical+"→"+c)
				break
			}
		}
	}
	sort.Strings(changed)
	return out, changed
}
