package discover

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/merchant-harness/mph/api"
)

// sandboxChoices are the reference sandbox's own choices where they differ
// from the default profile, which is the lenient reading of every open point
// (sandbox/profile.yaml holds them all): what discovery should find against
// the sandbox.
const sandboxChoices = `
auth:
  merchantIdHeader: both
issuance:
  initialBalance: amount
cards:
  listMaxLimit: 100
  withdrawVaultCredit: amount-minus-fee
  spendLimitTimezone: UTC
giftCards:
  quote:
    totalIsSum: true
betting:
  quote:
    totalIsSum: true
webhooks:
  deliveryKindPointer: /type
  deliveryReferencePointer: /data/reference
  callbackUrlMatch: exact
  signature:
    header: X-MPH-Signature
errors:
  status: {withdrawAboveBalance: 400, invalidValue: 400, frozenCardSecure: 400, invalidFormat: 400}
  refuses: {customerCountry: true, customerDateOfBirth: true, contactMobile: true, nonJsonContentType: true, badSpendLimit: true, negativeGiftAmount: true}
`

// profileMap is a profile as a generic YAML document (map of sections).
func profileMap(t *testing.T, p *api.Profile) map[string]any {
	t.Helper()
	b, err := yaml.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	// Header names are case-insensitive: compare them canonically.
	if h, ok := valueAt(m, "webhooks.signature.header").(string); ok && h != "" {
		setAt(m, "webhooks.signature.header", http.CanonicalHeaderKey(h))
	}
	return m
}

// merge lays a YAML overlay over m (deep: absent keys keep their value).
func merge(t *testing.T, m map[string]any, overlay string) {
	t.Helper()
	var o map[string]any
	if err := yaml.Unmarshal([]byte(overlay), &o); err != nil {
		t.Fatal(err)
	}
	var lay func(dst, src map[string]any)
	lay = func(dst, src map[string]any) {
		for k, v := range src {
			sub, isMap := v.(map[string]any)
			d, dIsMap := dst[k].(map[string]any)
			if isMap && dIsMap {
				lay(d, sub)
				continue
			}
			dst[k] = v
		}
	}
	lay(m, o)
	if h, ok := valueAt(m, "webhooks.signature.header").(string); ok && h != "" {
		setAt(m, "webhooks.signature.header", http.CanonicalHeaderKey(h))
	}
}

func valueAt(m map[string]any, key string) any {
	var cur any = m
	for _, part := range strings.Split(key, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[part]
	}
	return cur
}

func setAt(m map[string]any, key string, v any) {
	parts := strings.Split(key, ".")
	for _, part := range parts[:len(parts)-1] {
		next, ok := m[part].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[part] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = v
}

// leafKeys lists the dotted paths of the scalars (and lists) of a document;
// the maps of names (query parameters, extra members, field names) are one
// leaf each.
func leafKeys(m map[string]any, prefix string) []string {
	var out []string
	for k, v := range m {
		key := strings.TrimPrefix(prefix+"."+k, ".")
		if sub, ok := v.(map[string]any); ok && !isLeafMap(key) && !strings.HasSuffix(key, ".fields") {
			out = append(out, leafKeys(sub, key)...)
			continue
		}
		out = append(out, key)
	}
	sort.Strings(out)
	return out
}

// expectProposal checks a proposed profile against a server whose choices
// are the overlays (laid over the default profile in order): every key
// discovery found holds the server's choice, every key an overlay sets was
// found (of the last overlay, when there are several: the variant's), the
// keys it could not settle keep their default and are listed as
// undetermined, and every other key keeps its default.
func expectProposal(t *testing.T, got *api.Profile, res *Result, text string, overlays ...string) {
	t.Helper()
	server := profileMap(t, api.DefaultProfile())
	for _, o := range overlays {
		merge(t, server, o)
	}
	want := profileMap(t, api.DefaultProfile())
	found := map[string]bool{}
	for _, f := range res.Found {
		setAt(want, f.Key, valueAt(server, f.Key))
		found[f.Key] = true
	}
	// The undetermined list is checked by discoverAgainst, which resets it.
	g := profileMap(t, got)
	if !reflect.DeepEqual(g, want) {
		for _, k := range leafKeys(want, "") {
			if !reflect.DeepEqual(valueAt(g, k), valueAt(want, k)) {
				t.Errorf("%s = %v, want %v", k, valueAt(g, k), valueAt(want, k))
			}
		}
		t.Fatalf("the proposed profile:\n%s", text)
	}
	if len(overlays) < 2 {
		return
	}
	last := overlays[len(overlays)-1]
	var o map[string]any
	_ = yaml.Unmarshal([]byte(last), &o)
	for _, k := range leafKeys(o, "") {
		if !reflect.DeepEqual(valueAt(g, k), valueAt(server, k)) {
			t.Errorf("%s: the server's choice %v was not found (proposed %v)", k, valueAt(server, k), valueAt(g, k))
		}
	}
}
