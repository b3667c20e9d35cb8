package discover

import (
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/discover/discovertest"
	"github.com/merchant-harness/mph/sandbox"
	"github.com/merchant-harness/mph/sandbox/variant"
)

// discoverAgainst runs a discovery against base and returns the proposed
// profile as the suites would load it.
func discoverAgainst(t *testing.T, base, controlsURL string) (*api.Profile, *Result, string) {
	t.Helper()
	cfg := &config.Config{BaseURL: base, ControlsURL: controlsURL, AdminKey: sandbox.DefaultAdminKey, Primary: config.Credentials{MerchantID: sandbox.DemoMerchants()[0].ID, SecretKey: sandbox.DemoMerchants()[0].TestKey},
		Profile: api.DefaultProfile(), Options: config.Options{Timeout: 10e9, RunID: "mphdisc"}}
	res, err := Run(context.Background(), Options{Config: cfg})
	if err != nil {
		t.Fatalf("discover: %v", err)
	}
	b, err := Render([]string{"test"}, res.Found, res.Undetermined)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "profile.yaml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := api.LoadProfile(path)
	if err != nil {
		t.Fatalf("the proposed profile does not load: %v\n%s", err, b)
	}
	if want := unsettled(res); !reflect.DeepEqual(p.Undetermined, want) {
		t.Fatalf("the profile lists undetermined %v, discovery left %v unsettled:\n%s", p.Undetermined, want, b)
	}
	// The values are compared below; the list was just checked.
	p.Undetermined = api.DefaultProfile().Undetermined
	return p, res, string(b)
}

// unsettled are the keys discovery tried and could not settle, sorted.
func unsettled(res *Result) []string {
	out, seen := []string{}, map[string]bool{}
	for _, u := range res.Undetermined {
		if !foundKey(res, u.Key) && !seen[u.Key] {
			seen[u.Key] = true
			out = append(out, u.Key)
		}
	}
	sort.Strings(out)
	return out
}

func startSandbox(t *testing.T, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	r, err := sandbox.Start(context.Background(), "127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// TestDiscoveredProfileOfTheSandboxIsItsOwn: the embedded sandbox's
// discovered profile holds the sandbox's own choices (sandboxChoices over the
// lenient default profile) for every key found, and the keys were found,
// not left at their defaults.
func TestDiscoveredProfileOfTheSandboxIsItsOwn(t *testing.T) {
	for _, basePath := range []string{"", "/api/v1/merchant"} {
		t.Run("base path "+basePath, func(t *testing.T) {
			r := startSandbox(t, sandbox.Options{BasePath: basePath})
			p, res, text := discoverAgainst(t, r.BaseURL, r.ControlsURL)
			expectProposal(t, p, res, text, sandboxChoices)
			for _, k := range []string{"webhooks.deliveryKindPointer", "webhooks.deliveryReferencePointer", "webhooks.signature.header", "webhooks.signature.prefix", "webhooks.signature.key", "webhooks.callbackUrlMatch"} {
				if !foundKey(res, k) {
					t.Errorf("%s not found", k)
				}
			}
			if len(res.Found) < 40 {
				t.Errorf("only %d keys found: %+v", len(res.Found), res.Undetermined)
			}
			if res.Requests > 60 {
				t.Errorf("%d requests: discovery should be small", res.Requests)
			}
		})
	}
}

func TestDiscoveryFindsAlternativeChoices(t *testing.T) {
	const base = "/api/v1/merchant"
	srv, err := sandbox.New(sandbox.Options{BasePath: base})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(discovertest.Alternative(srv, base))
	defer ts.Close()
	p, res, text := discoverAgainst(t, ts.URL+base, ts.URL+"/_sandbox")
	expectProposal(t, p, res, text, sandboxChoices, fmt.Sprintf(`
auth: {merchantIdHeader: none}
cards: {listMaxLimit: %d}
giftCards: {quote: {subtotalPointer: /subtotalNgn, feePointer: /feeNgn, totalPointer: /totalNgn}}
customers: {fields: {dateOfBirth: dob}}
`, discovertest.MaxLimit))
	for _, c := range []string{"merchantIdHeader: none # found", "listMaxLimit: 80 # found", "subtotalPointer: /subtotalNgn # found", "dateOfBirth→dob"} {
		if !strings.Contains(text, c) {
			t.Errorf("the proposed profile lacks %q", c)
		}
	}
}

func foundKey(res *Result, key string) bool {
	for _, f := range res.Found {
		if f.Key == key {
			return true
		}
	}
	return false
}

// TestDiscoveryOfPreconfiguredWebhooks: without controls, the deliveries to a
// pre-configured URL are signed with the merchant's secret key (the sandbox's
// preset default), and discovery says so.
func TestDiscoveryOfPreconfiguredWebhooks(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hookURL := "http://" + ln.Addr().String() + "/hooks"
	ln.Close()
	r := startSandbox(t, sandbox.Options{HideControls: true, Webhooks: []sandbox.WebhookPreset{{MerchantID: sandbox.DemoMerchants()[0].ID, URL: hookURL}}})
	yes := true
	cfg := &config.Config{BaseURL: r.BaseURL, Primary: config.Credentials{MerchantID: sandbox.DemoMerchants()[0].ID, SecretKey: sandbox.DemoMerchants()[0].TestKey},
		Profile: api.DefaultProfile(), Options: config.Options{Timeout: 10e9, RunID: "mphdisc",
			Webhooks: config.Webhooks{WebhookReceiverURL: hookURL, WebhooksPreconfigured: &yes}}}
	res, err := Run(context.Background(), Options{Config: cfg, SkipPurchase: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, f := range res.Found {
		got[f.Key] = f.Value
	}
	if h, _ := got["webhooks.signature.header"].(string); !strings.EqualFold(h, "X-MPH-Signature") {
		t.Errorf("webhooks.signature.header = %q, want X-MPH-Signature (any case)", h)
	}
	want := map[string]any{"webhooks.signature.key": api.KeyMerchantSecretKey,
		"webhooks.deliveryKindPointer": "/type", "webhooks.callbackUrlMatch": "exact"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

// TestDiscoveryRecoversEveryVariantProfile: for every document-allowed
// sandbox variant that needs a profile overlay (sandbox --list-variants),
// the discovered profile is the sandbox's own with exactly that overlay.
func TestDiscoveryRecoversEveryVariantProfile(t *testing.T) {
	n := 0
	for _, v := range variant.Variants() {
		if v.Profile == "" {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			r := startSandbox(t, sandbox.Options{Variants: []string{v.Name}})
			got, res, text := discoverAgainst(t, r.BaseURL, r.ControlsURL)
			expectProposal(t, got, res, text, sandboxChoices, v.Profile)
		})
	}
	if n == 0 {
		t.Fatal("no variant with a profile overlay")
	}
}

// TestDiscoveryReadsTheQuoteEveryWayItKnows: a total under another name is
// found by name, one under no known name as the number equal to subtotal +
// fee, a fee as total - subtotal; a quote without a total leaves the total
// (and its arithmetic) undetermined and listed, never at a default.
func TestDiscoveryReadsTheQuoteEveryWayItKnows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rename map[string]string
		found  map[string]string // key → value and how
		listed []string          // keys the profile lists as undetermined
	}{
		{"total named as due", map[string]string{"totalNgn": "amountDueNgn"},
			map[string]string{"giftCards.quote.totalPointer": "/data/amountDueNgn named amountDueNgn"}, nil},
		{"total under no known name", map[string]string{"totalNgn": "vaultNgn"},
			map[string]string{"giftCards.quote.totalPointer": "/data/vaultNgn equal to subtotalNgn + feeNgn", "giftCards.quote.totalIsSum": "true"}, nil},
		{"fee under no known name", map[string]string{"feeNgn": "serviceNgn"},
			map[string]string{"giftCards.quote.feePointer": "/data/serviceNgn equal to totalNgn - subtotalNgn"}, nil},
		{"no total at all", map[string]string{"totalNgn": ""},
			nil, []string{"giftCards.quote.totalIsSum", "giftCards.quote.totalPointer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := sandbox.New(sandbox.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(discovertest.GiftQuoteMembers(srv, "/v1/merchant", tc.rename))
			defer ts.Close()
			p, res, text := discoverAgainst(t, ts.URL+"/v1/merchant", ts.URL+"/_sandbox")
			got := map[string]string{}
			for _, f := range res.Found {
				got[f.Key] = fmt.Sprint(f.Value) + " " + f.How
			}
			for k, want := range tc.found {
				v, how, _ := strings.Cut(want, " ")
				if !strings.HasPrefix(got[k], v+" ") || !strings.Contains(got[k], how) {
					t.Errorf("%s: found %q, want %s (%s)", k, got[k], v, how)
				}
			}
			for _, k := range tc.listed {
				if !contains(unsettled(res), k) || !strings.Contains(text, "  - "+k+" # ") {
					t.Errorf("%s is not listed as undetermined:\n%s", k, text)
				}
				if foundKey(res, k) {
					t.Errorf("%s was also found", k)
				}
			}
			if tc.listed == nil && p.GiftCards.Quote.TotalPointer == "" {
				t.Error("no total pointer")
			}
		})
	}
}
