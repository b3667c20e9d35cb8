package discover

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/merchant-harness/mph/api"
	"github.com/merchant-harness/mph/client"
	"github.com/merchant-harness/mph/client/controls"
	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/internal/hooklisten"
	"github.com/merchant-harness/mph/redact"
)

// Webhook discovery: one simulated authorization delivered to a receiver of
// the discovery (through the sandbox controls when the target has them, or at
// the pre-configured receiver URL), then where the delivery
// carries the kind and the reference, and which header carries an
// HMAC-SHA256 of it with a key the discovery knows.

const hookWait = 10 * time.Second

var webhookKeys = []string{"webhooks.deliveryKindPointer", "webhooks.deliveryReferencePointer", "webhooks.callbackUrlMatch", "webhooks.signature.header"}

// delivery is one request the receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// hookReceiver collects deliveries on a local listener.
type hookReceiver struct {
	srv *http.Server
	got chan delivery
}

// startHookReceiver listens for the receiver of the rules (its public URL,
// "" for a local one on 127.0.0.1), under the rules of every receiver
// (package hooklisten): the URL's own host, allowed senders only, bounded
// connections and waits. It keeps the first 16 POSTs of at most 1 MiB.
func startHookReceiver(rules hooklisten.Rules) (*hookReceiver, string, error) {
	addr, _, err := rules.Address()
	if err != nil {
		return nil, "", err
	}
	ln, err := rules.Listen(addr)
	if err != nil {
		return nil, "", err
	}
	r := &hookReceiver{got: make(chan delivery, 16)}
	r.srv = hooklisten.Server(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			http.NotFound(w, req)
			return
		}
		b, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		select {
		case r.got <- delivery{req.Header.Clone(), b}:
		default:
		}
	}))
	go func() { _ = r.srv.Serve(ln) }()
	return r, "http://" + ln.Addr().String() + "/mph-discover", nil
}

func (r *hookReceiver) close() { _ = r.srv.Close() }

// webhooks runs the webhook discovery when a receiver can be reached.
func (p *prober) webhooks(ctx context.Context) error {
	if p.card == "" {
		p.undetermineAll(webhookKeys, "no card to simulate a webhook for")
		return nil
	}
	recv, hookURL, secret, undo, err := p.hookTarget(ctx)
	if err != nil || recv == nil {
		why := "needs the sandbox controls or a pre-configured " + config.EnvWebhookReceiverURL
		if err != nil {
			why = err.Error()
		}
		p.undetermineAll(webhookKeys, why)
		return nil
	}
	defer recv.close()
	defer undo()
	resp, err := p.api.Post(ctx, "/cards/"+client.Seg(p.card)+"/simulate-webhook", map[string]any{"event_type": "authorization"})
	if err != nil {
		return err
	}
	_, ref, _ := findKey(decode(resp), "reference")
	_, cb, _ := findKey(decode(resp), "callback_url")
	d, ok := awaitDelivery(ctx, recv, ref)
	if resp.Status != http.StatusOK || !ok {
		p.undetermineAll(webhookKeys, fmt.Sprintf("the simulation answered HTTP %d and no delivery arrived within %s", resp.Status, hookWait))
		return nil
	}
	p.deliveryPointers(d, ref)
	p.callbackMatch(cb, hookURL)
	p.signature(d, secret)
	return nil
}

func (p *prober) undetermineAll(keys []string, why string) {
	for _, k := range keys {
		p.undetermined(k, why)
	}
}

// hookTarget starts a receiver and points the merchant's webhook at it;
// undo restores what the controls had (nothing for a pre-configured URL).
func (p *prober) hookTarget(ctx context.Context) (*hookReceiver, string, string, func(), error) {
	none := func() {}
	if (p.cfg.Preconfigured() || p.cfg.Profile.Webhooks.Preconfigured) && p.cfg.WebhookReceiverURL != "" {
		r, _, err := startHookReceiver(p.cfg.Receiver(p.cfg.WebhookReceiverURL))
		return r, p.cfg.WebhookReceiverURL, p.cfg.WebhookSecret, none, err
	}
	if p.cfg.ControlsURL == "" || p.cfg.AdminKey == "" {
		return nil, "", "", none, nil
	}
	r, hookURL, err := startHookReceiver(p.cfg.Receiver(""))
	if err != nil {
		return nil, "", "", none, err
	}
	ctl := controls.New(p.anon, p.cfg.ControlsURL, p.cfg.AdminKey)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	secret := "whsec_discover_" + hex.EncodeToString(b)
	redact.Register(secret)
	if err := ctl.SetWebhook(ctx, p.cfg.Primary.MerchantID, hookURL, secret); err != nil {
		r.close()
		return nil, "", "", none, fmt.Errorf("setting the webhook URL through the controls: %v", err)
	}
	return r, hookURL, secret, func() { _ = ctl.SetWebhook(context.WithoutCancel(ctx), p.cfg.Primary.MerchantID, "", "") }, nil
}

// awaitDelivery waits for the delivery carrying ref: a delivery is
// attributed by the simulation's reference only (without one, none is).
func awaitDelivery(ctx context.Context, r *hookReceiver, ref string) (delivery, bool) {
	if ref == "" {
		return delivery{}, false
	}
	t := time.NewTimer(hookWait)
	defer t.Stop()
	for {
		select {
		case d := <-r.got:
			if strings.Contains(string(d.body), ref) {
				return d, true
			}
		case <-t.C:
			return delivery{}, false
		case <-ctx.Done():
			return delivery{}, false
		}
	}
}

func (p *prober) deliveryPointers(d delivery, ref string) {
	var doc any
	_ = json.Unmarshal(d.body, &doc)
	if ptr, ok := findString(doc, "virtualcard.transaction.authorization"); ok {
		p.found("webhooks.deliveryKindPointer", ptr, "where the delivery of a simulated authorization carries virtualcard.transaction.authorization", "high")
	} else {
		p.undetermined("webhooks.deliveryKindPointer", "the delivery does not carry the documented kind")
	}
	if ptr, ok := findString(doc, ref); ok && ref != "" {
		p.found("webhooks.deliveryReferencePointer", ptr, "where the delivery carries the simulation's reference", "high")
	} else {
		p.undetermined("webhooks.deliveryReferencePointer", "the delivery does not carry the simulation's reference")
	}
}

func (p *prober) callbackMatch(cb, hookURL string) {
	switch {
	case cb == hookURL:
		p.found("webhooks.callbackUrlMatch", "exact", "callback_url is the configured URL", "high")
	case strings.HasPrefix(cb, hookURL):
		p.found("webhooks.callbackUrlMatch", "prefix", "callback_url begins with the configured URL", "high")
	default:
		p.undetermined("webhooks.callbackUrlMatch", "callback_url is not the configured URL")
	}
}

// signature finds the header carrying prefix + hex(HMAC-SHA256(key, body))
// for a key the discovery knows.
func (p *prober) signature(d delivery, secret string) {
	keys := map[string]string{api.KeyMerchantSecretKey: p.cfg.Primary.SecretKey}
	if secret != "" {
		keys[api.KeyWebhookSecret] = secret
	}
	names := make([]string, 0, len(d.header))
	for h := range d.header {
		names = append(names, h)
	}
	sort.Strings(names)
	for _, h := range names {
		v := d.header.Get(h)
		for source, key := range keys {
			m := hmac.New(sha256.New, []byte(key))
			m.Write(d.body)
			sum := hex.EncodeToString(m.Sum(nil))
			if i := strings.Index(strings.ToLower(v), sum); i >= 0 && i+len(sum) == len(v) {
				if def := api.DefaultProfile().Webhooks.Signature.Header; http.CanonicalHeaderKey(def) == h {
					h = def // the same header, spelt as the default profile spells it
				}
				p.found("webhooks.signature.header", h, "the header carrying the hex HMAC-SHA256 of the delivery", "high")
				p.found("webhooks.signature.prefix", v[:i], "the text before the digest", "high")
				p.found("webhooks.signature.key", source, "the key the digest verifies with", "high")
				return
			}
		}
	}
	if secret == "" {
		p.undetermined("webhooks.signature.header", "no header carries an HMAC-SHA256 with the merchant secret key; set "+config.EnvWebhookSecret+" to try a webhook secret")
		return
	}
	p.found("webhooks.signature.header", "", "no header carries an HMAC-SHA256 of the delivery with the known keys: deliveries are not verified", "low")
}
