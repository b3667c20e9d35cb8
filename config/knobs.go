package config

import "github.com/merchant-harness/mph/httpclient"

// The configuration table: every knob of every command, declared once. The
// flags (Bind), the reading of the environment (SettingsFromEnv), the
// overlay of the flags given, Environ, the secrets' registration for
// masking and the README's table of variables (ReadmeTable) are generated
// from it. No other file writes an MPH_ name (TestEnvNamesOnlyInTheTable):
// code quotes these constants.

// EnvPrefix begins every variable of the table.
const EnvPrefix = "MPH_"

// The variables, for the messages that quote them.
const (
	EnvBaseURL               = "MPH_BASE_URL"
	EnvMerchantID            = "MPH_MERCHANT_ID"
	EnvSecretKey             = "MPH_SECRET_KEY"
	EnvMerchant2ID           = "MPH_MERCHANT2_ID"
	EnvSecretKey2            = "MPH_SECRET_KEY2"
	EnvLiveMerchantID        = "MPH_LIVE_MERCHANT_ID"
	EnvLiveSecretKey         = "MPH_LIVE_SECRET_KEY"
	EnvLowKYBMerchantID      = "MPH_LIVE_LOWKYB_MERCHANT_ID"
	EnvLowKYBSecretKey       = "MPH_LIVE_LOWKYB_SECRET_KEY"
	EnvBlockedMerchantID     = "MPH_BLOCKED_MERCHANT_ID"
	EnvBlockedSecretKey      = "MPH_BLOCKED_SECRET_KEY"
	EnvControlsURL           = "MPH_CONTROLS_URL"
	EnvAdminKey              = "MPH_ADMIN_KEY"
	EnvProfile               = "MPH_PROFILE"
	EnvTimeout               = "MPH_TIMEOUT"
	EnvAllowLive             = "MPH_ALLOW_LIVE"
	EnvInsecureTLS           = "MPH_INSECURE_TLS"
	EnvRunID                 = "MPH_RUN_ID"
	EnvFollowRedirects       = "MPH_FOLLOW_REDIRECTS"
	EnvMaxBody               = "MPH_MAX_BODY"
	EnvRetryAfterMax         = "MPH_RETRY_AFTER_MAX"
	EnvWebhookReceiverURL    = "MPH_WEBHOOK_RECEIVER_URL"
	EnvWebhooksPreconfigured = "MPH_WEBHOOKS_PRECONFIGURED"
	EnvWebhookSecret         = "MPH_WEBHOOK_SECRET"
	EnvWebhookListen         = "MPH_WEBHOOK_LISTEN"
	EnvWebhookAllowFrom      = "MPH_WEBHOOK_ALLOW_FROM"
	EnvSlow                  = "MPH_SLOW"
	EnvNoTeardown            = "MPH_NO_TEARDOWN"
	EnvMaxSpend              = "MPH_MAX_SPEND"
	EnvMaxRPS                = "MPH_MAX_RPS"
	EnvJUnitReport           = "MPH_JUNIT_REPORT"
	EnvJSONReport            = "MPH_JSON_REPORT"
	EnvHTMLReport            = "MPH_HTML_REPORT"
	EnvMarkdownReport        = "MPH_MARKDOWN_REPORT"
	EnvSandboxJWTSecret      = "MPH_SANDBOX_JWT_SECRET"
)

// FileSuffix names, appended to a variable of text, the variable naming a
// file that holds the value (MPH_SECRET_KEY_FILE), so that no secret needs
// to be on a command line or in the environment itself.
const FileSuffix = "_FILE"

// Command is a set of the commands that take a knob.
type Command uint16

// The commands.
const (
	CmdConform  Command = 1 << iota // mph conform
	CmdSuites                       // the suites run by go test or ginkgo
	CmdLoad                         // mph load and its subcommands
	CmdDiscover                     // mph profile discover
	CmdSweep                        // mph sweep
	CmdProxy                        // mph proxy
	CmdOpenAPI                      // mph openapi
	CmdSandbox                      // mph sandbox
)

var commandNames = []string{"conform", "go test", "load", "profile discover", "sweep", "proxy", "openapi", "sandbox"}

// Sets of commands.
const (
	cmdsRun     = CmdConform | CmdSuites                     // a conformance run
	cmdsTarget  = cmdsRun | CmdLoad | CmdDiscover | CmdSweep // the commands with credentials
	cmdsNetwork = cmdsTarget | CmdProxy                      // the commands sending to the target
	cmdsHooks   = cmdsRun | CmdDiscover                      // the commands receiving webhooks
	cmdsProfile = cmdsNetwork | CmdOpenAPI                   // the commands reading a profile
)

// knob is one entry of the table.
type knob struct {
	Env     string
	Flag    string // "" = environment only
	Default string // the value when neither the flag nor the variable gives one
	Usage   string
	// Secret knobs are masked in every output from the moment they are
	// read and have no flag (the sandbox's own signing key aside).
	Secret bool
	Cmds   Command
	dest   func(*Settings) value
}

var knobs = []knob{
	{Env: EnvBaseURL, Flag: "base-url", Cmds: cmdsNetwork, dest: func(s *Settings) value { return link(&s.BaseURL) },
		Usage: "merchant root of the target, ending in /v1/merchant (empty: the embedded sandbox; mph proxy needs one)"},
	{Env: EnvMerchantID, Flag: "merchant-id", Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.Primary.MerchantID) },
		Usage: "merchant id of the main TEST merchant (its secret key only from " + EnvSecretKey + " or " + EnvSecretKey + FileSuffix + ")"},
	{Env: EnvSecretKey, Secret: true, Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.Primary.SecretKey) },
		Usage: "secret key of the main TEST merchant (required for a remote target)"},
	{Env: EnvMerchant2ID, Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.Secondary.MerchantID) },
		Usage: "a second TEST merchant: tenant-isolation specs, the token scenario's second merchant, sweep"},
	{Env: EnvSecretKey2, Secret: true, Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.Secondary.SecretKey) },
		Usage: "the second TEST merchant's secret key"},
	{Env: EnvLiveMerchantID, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.LiveTier2.MerchantID) },
		Usage: "LIVE credentials of a merchant at KYB Tier 2+: the LIVE specs"},
	{Env: EnvLiveSecretKey, Secret: true, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.LiveTier2.SecretKey) },
		Usage: "its LIVE secret key"},
	{Env: EnvLowKYBMerchantID, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.LiveLowKYB.MerchantID) },
		Usage: "LIVE credentials of a merchant below KYB Tier 2: the KYB 403 spec"},
	{Env: EnvLowKYBSecretKey, Secret: true, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.LiveLowKYB.SecretKey) },
		Usage: "its LIVE secret key"},
	{Env: EnvBlockedMerchantID, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.NotWhitelisted.MerchantID) },
		Usage: "credentials whose IP whitelist excludes this machine: the IP-whitelist 403 spec"},
	{Env: EnvBlockedSecretKey, Secret: true, Cmds: cmdsRun, dest: func(s *Settings) value { return text(&s.NotWhitelisted.SecretKey) },
		Usage: "their secret key"},
	{Env: EnvControlsURL, Flag: "controls-url", Cmds: cmdsTarget, dest: func(s *Settings) value { return link(&s.ControlsURL) },
		Usage: "sandbox test-control root, e.g. http://host/_sandbox: clock, card transactions, balances, webhook URL, gift hold, rate limits (another origin than the base URL only when the controls confirm the target's identity)"},
	{Env: EnvAdminKey, Secret: true, Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.AdminKey) },
		Usage: "admin key of the sandbox test controls"},
	{Env: EnvProfile, Flag: "profile", Cmds: cmdsProfile, dest: func(s *Settings) value { return text(&s.ProfilePath) },
		Usage: "target profile YAML for what the API document does not show"},
	{Env: EnvTimeout, Flag: "timeout", Default: httpclient.DefaultTimeout.String(), Cmds: cmdsNetwork, dest: func(s *Settings) value { return duration(&s.Timeout) },
		Usage: "timeout of every HTTP request (mph proxy: the longest wait for the target's answer headers)"},
	{Env: EnvAllowLive, Flag: "allow-live", Cmds: cmdsTarget, dest: func(s *Settings) value { return boolean(&s.AllowLive) },
		Usage: "allow requests that create, move money or change state with LIVE credentials (refused otherwise)"},
	{Env: EnvInsecureTLS, Flag: "insecure-tls", Cmds: cmdsNetwork, dest: func(s *Settings) value { return boolean(&s.InsecureTLS) },
		Usage: "skip TLS certificate verification (only for a test server you trust)"},
	{Env: EnvRunID, Flag: "run-id", Cmds: cmdsTarget, dest: func(s *Settings) value { return text(&s.RunID) },
		Usage: "prefix of every reference the harness creates (default random; mph sweep: the run to sweep)"},
	{Env: EnvFollowRedirects, Flag: "follow-redirects", Cmds: cmdsTarget, dest: func(s *Settings) value { return boolean(&s.FollowRedirects) },
		Usage: "follow redirects to the same origin (scheme, host, port); a redirect elsewhere is always refused"},
	{Env: EnvMaxBody, Flag: "max-body", Cmds: cmdsNetwork, dest: func(s *Settings) value { return size(&s.MaxBody) },
		Usage: "most bytes read of each answer body, e.g. 64KiB or 1MiB (default 1MiB for conform, discover, sweep and proxy, 64KiB for load; mph proxy streams a larger body unchecked)"},
	{Env: EnvRetryAfterMax, Flag: "retry-after-max", Cmds: cmdsTarget, dest: func(s *Settings) value { return duration(&s.RetryAfterMax) },
		Usage: "longest Retry-After the harness waits; a longer one ends the wait with an error (default: conform as long as its --deadline allows, other commands " + httpclient.DefaultRetryAfterMax.String() + ")"},
	{Env: EnvWebhookReceiverURL, Flag: "webhook-receiver-url", Cmds: cmdsHooks, dest: func(s *Settings) value { return link(&s.WebhookReceiverURL) },
		Usage: "public URL at which the target reaches the harness's webhook receiver, for a remote target (with pre-configured webhooks: the URL the target already delivers to)"},
	{Env: EnvWebhooksPreconfigured, Flag: "webhooks-preconfigured", Cmds: cmdsHooks, dest: func(s *Settings) value { return optBoolean(&s.WebhooksPreconfigured) },
		Usage: "the target already delivers the main merchant's webhooks to --webhook-receiver-url: run the delivery specs without controls (default: the profile's webhooks.preconfigured)"},
	{Env: EnvWebhookSecret, Secret: true, Cmds: cmdsHooks, dest: func(s *Settings) value { return text(&s.WebhookSecret) },
		Usage: "the key of the deliveries' signatures when the profile says a webhook secret signs them"},
	{Env: EnvWebhookListen, Cmds: cmdsHooks, dest: func(s *Settings) value { return text(&s.WebhookListen) },
		Usage: "local address of the webhook receiver when a tunnel or load balancer forwards its public URL to another one, e.g. 0.0.0.0:8080 (default: the URL's own host and port)"},
	{Env: EnvWebhookAllowFrom, Cmds: cmdsHooks, dest: func(s *Settings) value { return senders(&s.WebhookAllowFrom) },
		Usage: "addresses or networks deliveries may come from, e.g. 203.0.113.0/24,10.0.0.7; connections from elsewhere are closed before a byte is read (default: any sender)"},
	{Env: EnvSlow, Flag: "slow", Cmds: cmdsRun, dest: func(s *Settings) value { return boolean(&s.Slow) },
		Usage: "also run specs that wait out real time (token expiry without a sandbox clock: 15 minutes)"},
	{Env: EnvNoTeardown, Flag: "no-teardown", Cmds: cmdsRun, dest: func(s *Settings) value { return boolean(&s.NoTeardown) },
		Usage: "keep the created cards and their balances for inspection (default: sweep every card back to the vault and freeze it)"},
	{Env: EnvMaxSpend, Flag: "max-spend", Cmds: cmdsRun, dest: func(s *Settings) value { return spend(&s.MaxSpend) },
		Usage: "most test money the run may spend, fees included, e.g. USD=50,NGN=200000; specs that would go over are skipped with the reason"},
	{Env: EnvMaxRPS, Flag: "max-rps", Cmds: cmdsRun, dest: func(s *Settings) value { return rate(&s.MaxRPS) },
		Usage: "most requests per second the suites send (0: no cap)"},
	{Env: EnvJUnitReport, Cmds: CmdSuites, dest: func(s *Settings) value { return text(&s.Reports.JUnit) },
		Usage: "JUnit XML report of the suites run by go test or ginkgo (mph conform: --junit-report)"},
	{Env: EnvJSONReport, Cmds: CmdSuites, dest: func(s *Settings) value { return text(&s.Reports.JSON) },
		Usage: "JSON report of the suites run by go test or ginkgo (mph conform: --json-report)"},
	{Env: EnvHTMLReport, Cmds: CmdSuites, dest: func(s *Settings) value { return text(&s.Reports.HTML) },
		Usage: "HTML report of the suites run by go test or ginkgo (mph conform: --html-report)"},
	{Env: EnvMarkdownReport, Cmds: CmdSuites, dest: func(s *Settings) value { return text(&s.Reports.Markdown) },
		Usage: "Markdown summary of the suites run by go test or ginkgo (mph conform: --markdown-report)"},
	{Env: EnvSandboxJWTSecret, Flag: "jwt-secret", Secret: true, Cmds: CmdSandbox, dest: func(s *Settings) value { return text(&s.SandboxJWTSecret) },
		Usage: "HS256 signing secret of the sandbox's access tokens (default random)"},
}
