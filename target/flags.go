package target

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/httpclient"

	"github.com/spf13/pflag"
)

// BindFlags adds the target flags shared by conform and load. Flags override
// the environment; secrets have no flags on purpose (environment or file only).
func (s *Settings) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&s.BaseURL, "base-url", s.BaseURL, "merchant root of the target, ending in /v1/merchant (env "+EnvBaseURL+"; empty: the embedded sandbox)")
	fs.StringVar(&s.Primary.MerchantID, "merchant-id", s.Primary.MerchantID, "merchant id of the main TEST merchant (env "+EnvMerchantID+"; its secret key only from "+EnvSecretKey+" or "+EnvSecretKey+"_FILE)")
	fs.StringVar(&s.ControlsURL, "controls-url", s.ControlsURL, "sandbox test-control root, e.g. http://host/_sandbox (env "+EnvControlsURL+")")
	fs.StringVar(&s.ProfilePath, "profile", s.ProfilePath, "target profile YAML for what the API document does not show (env "+EnvProfile+")")
	fs.DurationVar(&s.Timeout, "timeout", orDefault(s.Timeout, 10*time.Second), "timeout of every HTTP request (env "+EnvTimeout+")")
	fs.BoolVar(&s.AllowLive, "allow-live", s.AllowLive, "allow requests that create, move money or change state with LIVE credentials: conform, load, probe-rate-limit, capacity (env "+EnvAllowLive+")")
	fs.BoolVar(&s.InsecureTLS, "insecure-tls", s.InsecureTLS, "skip TLS certificate verification (env "+EnvInsecureTLS+")")
	fs.StringVar(&s.WebhookReceiverURL, "webhook-receiver-url", s.WebhookReceiverURL, "public URL at which the target reaches the harness webhook receiver (env "+EnvWebhookReceiverURL+")")
	fs.StringVar(&s.RunID, "run-id", s.RunID, "prefix of every reference the harness creates (env "+EnvRunID+"; default random)")
	fs.BoolVar(&s.FollowRedirects, "follow-redirects", s.FollowRedirects, "follow redirects to the same origin (scheme, host, port); a redirect elsewhere is always refused (env "+EnvFollowRedirects+")")
	fs.Var((*ByteSize)(&s.MaxBody), "max-body", "most bytes read of each answer body, e.g. 64KiB or 1MiB (env "+EnvMaxBody+"; default 1MiB for conform, 64KiB for load)")
	fs.DurationVar(&s.RetryAfterMax, "retry-after-max", s.RetryAfterMax, "longest Retry-After the harness waits; a longer one ends the wait with an error (env "+EnvRetryAfterMax+"; default: conform as long as its --deadline allows, other commands "+httpclient.DefaultRetryAfterMax.String()+")")
}

// ByteSize is a size flag: a number of bytes with an optional KiB, MiB or
// GiB suffix (KB, MB, GB are read as the binary units too).
type ByteSize int64

// String renders the size for --help.
func (b *ByteSize) String() string {
	switch v := int64(*b); {
	case v == 0:
		return ""
	case v%(1<<20) == 0:
		return strconv.FormatInt(v>>20, 10) + "MiB"
	case v%(1<<10) == 0:
		return strconv.FormatInt(v>>10, 10) + "KiB"
	default:
		return strconv.FormatInt(v, 10)
	}
}

// Set parses "65536", "64KiB", "1MiB".
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return fmt.Errorf("%q is not a positive size (e.g. 65536, 64KiB, 1MiB)", s)
	}
	*b = ByteSize(n * mult)
	return nil
}

// Type names the flag's value in --help.
func (b *ByteSize) Type() string { return "size" }

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// SettingsFromEnvAndFlags reads MPH_* and then lets every flag that was given
// explicitly win; fl holds the values BindFlags bound on fs. Flags that were
// not given leave the environment's value alone, and the timeout falls back
// to the flag default when neither set it.
func SettingsFromEnvAndFlags(fs *pflag.FlagSet, fl Settings) (Settings, error) {
	s, err := SettingsFromEnv()
	if err != nil {
		return s, err
	}
	for name, apply := range map[string]func(){
		"base-url":             func() { s.BaseURL = fl.BaseURL },
		"merchant-id":          func() { s.Primary.MerchantID = fl.Primary.MerchantID },
		"controls-url":         func() { s.ControlsURL = fl.ControlsURL },
		"profile":              func() { s.ProfilePath = fl.ProfilePath },
		"timeout":              func() { s.Timeout = fl.Timeout },
		"allow-live":           func() { s.AllowLive = fl.AllowLive },
		"insecure-tls":         func() { s.InsecureTLS = fl.InsecureTLS },
		"webhook-receiver-url": func() { s.WebhookReceiverURL = fl.WebhookReceiverURL },
		"run-id":               func() { s.RunID = fl.RunID },
		"follow-redirects":     func() { s.FollowRedirects = fl.FollowRedirects },
		"max-body":             func() { s.MaxBody = fl.MaxBody },
		"retry-after-max":      func() { s.RetryAfterMax = fl.RetryAfterMax },
	} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			apply()
		}
	}
	if s.Timeout == 0 {
		s.Timeout = fl.Timeout
	}
	if s.RetryAfterMax == 0 {
		s.RetryAfterMax = fl.RetryAfterMax
	}
	return s, nil
}
