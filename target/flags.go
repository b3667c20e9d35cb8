package target

import (
	"time"

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
}

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
	} {
		if f := fs.Lookup(name); f != nil && f.Changed {
			apply()
		}
	}
	if s.Timeout == 0 {
		s.Timeout = fl.Timeout
	}
	return s, nil
}
