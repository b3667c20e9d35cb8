package webhookrx

// Webhook deliveries without test controls: on a real TEST environment the
// merchant's webhook URL is set in the provider's dashboard. When the profile
// (or the settings) say the target already delivers to the configured
// receiver URL, one receiver per process listens there and the
// delivery specs run against it. Every awaited delivery's signature is
// verified when the profile names a signature header.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/redact"
	"github.com/merchant-harness/mph/result"
	"github.com/merchant-harness/mph/suites/framework"
)

// HookSink is where a spec's deliveries arrive and the key that signs them.
type HookSink struct {
	*Receiver
	Key      string // signing key ("" when unknown)
	Since    time.Time
	Callback string // the webhook URL the target is configured with
}

var (
	sharedHookMu sync.Mutex
	sharedHook   *Receiver
)

// preconfiguredReceiver starts, once per process, the receiver listening at
// the pre-configured URL.
func preconfiguredReceiver() (*Receiver, error) {
	sharedHookMu.Lock()
	defer sharedHookMu.Unlock()
	if sharedHook != nil {
		return sharedHook, nil
	}
	r, err := startReceiverAt(framework.Cfg().Receiver(framework.Cfg().WebhookReceiverURL), "")
	if err != nil {
		return nil, err
	}
	sharedHook = r
	framework.RegisterCleanup(r.Close)
	return r, nil
}

// signingKey is the key deliveries are verified with (registered with the
// redaction, so that it never reaches an output); controlSecret is the
// one the harness set through the controls ("" in pre-configured mode).
func signingKey(controlSecret string) (string, error) {
	sig := framework.Profile().Webhooks.Signature
	if sig.Header == "" {
		return "", nil
	}
	if sig.Key == api.KeyMerchantSecretKey {
		return framework.Cfg().Primary.SecretKey, nil
	}
	if controlSecret != "" {
		return controlSecret, nil
	}
	if k := framework.Cfg().WebhookSecret; k != "" {
		return k, nil // registered for masking when the configuration was read
	}
	return "", errors.New("the profile verifies delivery signatures with a webhook secret (webhooks.signature.key: webhook-secret): set " + config.EnvWebhookSecret + " or " + config.EnvWebhookSecret + config.FileSuffix)
}

// ExpectCallbackURL compares a simulation's callback_url with the URL the
// deliveries go to, per the profile: normalized (the default: equal after
// RFC 3986 normalisation, or the configured URL followed by more), exactly
// or as a prefix.
func ExpectCallbackURL(got any, want string) {
	GinkgoHelper()
	s, _ := got.(string)
	switch framework.Profile().Webhooks.CallbackURLMatch {
	case "prefix":
		Expect(s).To(HavePrefix(want), "callback_url must begin with the configured webhook URL (webhooks.callbackUrlMatch: prefix)")
	case "exact":
		Expect(s).To(Equal(want), "callback_url is the configured webhook URL (webhooks.callbackUrlMatch: exact)")
	default:
		Expect(SameURL(s, want)).To(BeTrue(), "callback_url %q is not the configured webhook URL %q, even after RFC 3986 normalisation (webhooks.callbackUrlMatch: normalized)", s, want)
	}
}

// SameURL reports whether got names the URL want after RFC 3986
// normalisation (scheme and host case, the scheme's default port, an empty
// path as "/"), possibly followed by more path or a query.
func SameURL(got, want string) bool {
	g, w := normalURL(got), normalURL(want)
	if g == "" || w == "" {
		return false
	}
	if g == w {
		return true
	}
	return strings.HasPrefix(g, strings.TrimSuffix(w, "/")+"/") || strings.HasPrefix(g, w+"?")
}

// normalURL is u in RFC 3986 normal form ("" when it is not an absolute URL).
func normalURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	p.Scheme = strings.ToLower(p.Scheme)
	host, port := strings.ToLower(p.Hostname()), p.Port()
	if port == map[string]string{"http": "80", "https": "443"}[p.Scheme] {
		port = ""
	}
	p.Host = host
	if port != "" {
		p.Host = net.JoinHostPort(host, port)
	}
	if p.Path == "" {
		p.Path = "/"
	}
	p.RawPath, p.Fragment = "", ""
	return p.String()
}

// ExpectSigned verifies a delivery's signature when the profile names a
// signature header. Without one the spec's verdict stands on a delivery
// anyone reaching the receiver could have sent (it matched the awaited
// reference, which only the target knew): the report says so.
func ExpectSigned(d Delivery, key string) {
	GinkgoHelper()
	sig := framework.Profile().Webhooks.Signature
	if sig.Header == "" {
		AddReportEntry(UnverifiedEntry, "the delivery's authenticity was not verified: the profile names no signature (webhooks.signature.header; the document: not shown)")
		return
	}
	Expect(verifySignature(sig, d, key, time.Now())).To(Succeed(), "the delivery's signature (profile webhooks.signature)")
}

// UnverifiedEntry names the report entry of a delivery spec whose delivery
// carried no signature the harness could check (the spec's note in reports).
const UnverifiedEntry = result.UnverifiedEntry

// Authentic reports whether d carries a valid signature; without a
// signature profile nothing can be told apart, and every delivery counts.
func (s *HookSink) Authentic(d Delivery) bool {
	sig := framework.Profile().Webhooks.Signature
	return sig.Header == "" || verifySignature(sig, d, s.Key, time.Now()) == nil
}

// DroppedNote says, after a failed wait, what the receiver did not keep
// ("" when it kept everything).
func (s *HookSink) DroppedNote() string {
	if d := s.Dropped(); d != "" {
		return "; " + d
	}
	return ""
}

// verifySignature checks d against the profile's scheme: the header holds
// prefix + hex(HMAC-SHA256(key, payload)), payload being the body or
// "<timestamp>.<body>" when a timestamp header is configured.
func verifySignature(sig api.SignatureProfile, d Delivery, key string, now time.Time) error {
	v := d.Header.Get(sig.Header)
	if v == "" {
		return fmt.Errorf("the delivery carries no %s header", sig.Header)
	}
	hexSig, ok := strings.CutPrefix(v, sig.Prefix)
	if !ok {
		return fmt.Errorf("the %s header does not start with %q", sig.Header, sig.Prefix)
	}
	got, err := hex.DecodeString(strings.TrimSpace(hexSig))
	if err != nil {
		return fmt.Errorf("the %s header is not hex after %q", sig.Header, sig.Prefix)
	}
	payload := d.Body
	if sig.TimestampHeader != "" {
		ts := d.Header.Get(sig.TimestampHeader)
		secs, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
		if err != nil {
			return fmt.Errorf("the %s header %q is not Unix seconds", sig.TimestampHeader, ts)
		}
		if math.Abs(now.Sub(time.Unix(secs, 0)).Seconds()) > float64(sig.ToleranceSeconds) {
			return fmt.Errorf("the %s header is %s away from now, more than the %d s tolerance", sig.TimestampHeader, now.Sub(time.Unix(secs, 0)).Round(time.Second), sig.ToleranceSeconds)
		}
		payload = append([]byte(ts+"."), d.Body...)
	}
	m := hmac.New(sha256.New, []byte(key))
	m.Write(payload)
	if !hmac.Equal(got, m.Sum(nil)) {
		return fmt.Errorf("the %s signature does not match HMAC-SHA256 of the delivery with the configured key", sig.Header)
	}
	return nil
}

// withReceiver gives the spec the place its deliveries arrive: the
// pre-configured receiver, or a new receiver configured as the primary
// merchant's webhook URL through the controls (undone when the spec ends).
func WithReceiver(ctx context.Context) *HookSink {
	GinkgoHelper()
	if framework.WebhooksPreconfigured() {
		r, err := preconfiguredReceiver()
		if err != nil {
			framework.HarnessError("webhook receiver at %s: %v", framework.Cfg().WebhookReceiverURL, err)
		}
		key, err := signingKey("")
		if err != nil {
			framework.HarnessError("%v", err)
		}
		return &HookSink{Receiver: r, Key: key, Since: time.Now(), Callback: framework.Cfg().WebhookReceiverURL}
	}
	return WithReceiverThroughControls(ctx)
}

// withReceiverThroughControls starts a receiver and sets it as the primary
// merchant's webhook URL through the controls until the spec ends.
func WithReceiverThroughControls(ctx context.Context) *HookSink {
	GinkgoHelper()
	r, err := StartReceiver(framework.Cfg().Receiver(framework.Cfg().WebhookReceiverURL))
	if err != nil {
		framework.HarnessError("webhook receiver: %v", err)
	}
	DeferCleanup(r.Close)
	mid := framework.Cfg().Primary.MerchantID
	secret := "whsec_" + hookRandomHex(12)
	redact.Register(secret)
	if framework.Profile().Webhooks.Signature.Key == api.KeyMerchantSecretKey {
		secret = framework.Cfg().Primary.SecretKey
	}
	if err := framework.Controls().SetWebhook(ctx, mid, r.URL(), secret); err != nil {
		framework.HarnessError("sandbox control webhook: %v", err)
	}
	DeferCleanup(func(ctx SpecContext) {
		_ = framework.Controls().SetWebhook(ctx, mid, "", "")
	})
	key, err := signingKey(secret)
	if err != nil {
		framework.HarnessError("%v", err)
	}
	return &HookSink{Receiver: r, Key: key, Since: time.Now(), Callback: r.URL()}
}

// Next waits, within the delivery wait, for a matching delivery received
// since the sink was handed out. Where the sandbox controls say how many
// deliveries are in flight, it stops once none is and nothing matched: no
// delivery can arrive any more.
func (s *HookSink) Next(ctx context.Context, match func(Delivery) bool) (Delivery, bool) {
	s.settled = nil
	if framework.Has(framework.CapSandboxControls) {
		ctl := framework.Controls()
		s.settled = func(ctx context.Context) bool {
			n, known, err := ctl.PendingDeliveries(ctx)
			return err == nil && known && n == 0
		}
	}
	return s.Receiver.Await(ctx, framework.Timeouts().WebhookDelivery, func(d Delivery) bool {
		return !d.Received.Before(s.Since) && match(d)
	})
}
