package config

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/redact"
)

// Flags are the flags of one command's knobs, bound on its flag set.
type Flags struct {
	cmd     Command
	fs      *pflag.FlagSet
	given   Settings            // what the flags parse into
	aliases map[string][]string // a flag's former names
}

// Bind adds to fs a flag for every knob of cmd that has one. Secrets have
// none on purpose: the environment, or a file it names, holds them.
func Bind(fs *pflag.FlagSet, cmd Command) *Flags {
	f := &Flags{cmd: cmd, fs: fs, aliases: map[string][]string{}}
	for _, k := range knobs {
		if k.Flag == "" || k.Cmds&cmd == 0 {
			continue
		}
		v := k.dest(&f.given)
		if k.Default != "" {
			_ = v.Set(k.Default) // shown by --help; TestKnobDefaultsParse
		}
		fl := fs.VarPF(v, k.Flag, "", k.Usage+" (env "+k.Env+")")
		if v.Type() == "bool" {
			fl.NoOptDefVal = "true"
		}
	}
	return f
}

// Settings reads the command's knobs from the environment, then lets every
// flag that was given win; a flag not given leaves the environment's value
// (or the knob's default) alone.
func (f *Flags) Settings() (Settings, error) {
	s, err := SettingsFromEnv(f.cmd)
	if err != nil {
		return s, err
	}
	for _, k := range knobs {
		if k.Flag == "" || k.Cmds&f.cmd == 0 {
			continue
		}
		if fl := f.fs.Lookup(k.Flag); fl != nil && f.changed(k.Flag) {
			if err := k.dest(&s).Set(fl.Value.String()); err != nil {
				return s, usage("--%s: %v", k.Flag, err)
			}
		}
	}
	return s, nil
}

// Deprecated binds old as a former name of the flag now: it sets the same
// value, and a one-line notice says to use now.
func (f *Flags) Deprecated(old, now string) {
	fl := f.fs.Lookup(now)
	f.fs.VarPF(fl.Value, old, "", "deprecated name of --"+now)
	_ = f.fs.MarkDeprecated(old, "use --"+now)
	f.aliases[now] = append(f.aliases[now], old)
}

// changed reports whether the flag was given, under its name or a former one.
func (f *Flags) changed(name string) bool {
	if f.fs.Changed(name) {
		return true
	}
	for _, old := range f.aliases[name] {
		if f.fs.Changed(old) {
			return true
		}
	}
	return false
}

// SettingsFromEnv reads the knobs of cmd from the environment; a knob the
// environment does not set takes its default. A text knob may also come
// from the file its variable with FileSuffix names (MPH_SECRET_KEY_FILE).
func SettingsFromEnv(cmd Command) (Settings, error) {
	var s Settings
	for _, k := range knobs {
		if k.Cmds&cmd == 0 {
			continue
		}
		v := k.dest(&s)
		raw, err := lookup(k, v)
		if err != nil {
			return s, err
		}
		if raw == "" {
			raw = k.Default
		}
		if raw == "" {
			continue
		}
		if err := v.Set(raw); err != nil {
			return s, usage("%s=%q: %v", k.Env, raw, err)
		}
	}
	return s, nil
}

// lookup is the knob's variable, or for a text knob the content of the
// file its _FILE variable names.
func lookup(k knob, v value) (string, error) {
	if raw := os.Getenv(k.Env); raw != "" {
		return raw, nil
	}
	if _, isText := v.(textValue); !isText {
		return "", nil
	}
	f := os.Getenv(k.Env + FileSuffix)
	if f == "" {
		return "", nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return "", usage("%s%s: %v", k.Env, FileSuffix, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Environ renders a Config as the environment SettingsFromEnv reads, to
// configure a child run against the same target with the same options:
// every knob that holds a value other than its default.
func Environ(cfg *Config) []string {
	s := cfg.settings()
	// The child reaches an embedded sandbox by URL, so it cannot tell that
	// this process runs it and holds no money there: LIVE writes are allowed
	// explicitly.
	s.AllowLive = s.AllowLive || cfg.Embedded
	var env []string
	for _, k := range knobs {
		if v := k.dest(&s); v.given() && v.String() != k.Default {
			env = append(env, k.Env+"="+v.String())
		}
	}
	return env
}

// registerSettings registers the secrets of settings for masking, so that
// even a configuration error quoting one (a malformed base URL with a
// password) prints it masked: every secret knob, the credentials as pairs
// (their Basic form) and the passwords of URLs.
func registerSettings(s Settings) {
	for _, k := range knobs {
		v := k.dest(&s)
		if t, ok := v.(textValue); ok && t.url {
			redact.RegisterURL(v.String())
		} else if k.Secret {
			redact.Register(v.String())
		}
	}
	for _, c := range []Credentials{s.Primary, s.Secondary, s.LiveTier2, s.LiveLowKYB, s.NotWhitelisted} {
		redact.RegisterCredentials(c.MerchantID, c.SecretKey)
	}
}

// RegisterSecrets registers the secrets of a resolved target for masking,
// whatever their shape: a secret key without the sk_ prefix, the admin key,
// a password in a URL's userinfo. Resolve does; a process handed a Config
// (a parallel process of the suites) calls it.
func RegisterSecrets(cfg *Config) { registerSettings(cfg.settings()) }

// ReadmeTable is the README's table of variables, generated from the table
// of knobs (TestReadmeEnvironmentTable keeps it exact).
func ReadmeTable() string {
	var b strings.Builder
	b.WriteString("| variable | flag | commands | what it sets |\n| :- | :- | :- | :- |\n")
	for _, k := range knobs {
		flag := "(environment only)"
		if k.Flag != "" {
			flag = "`--" + k.Flag + "`"
		}
		what := k.Usage
		if k.Default != "" {
			what += "; default " + k.Default
		}
		if k.Secret {
			what += "; a secret: masked in every output, also read from the file `" + k.Env + FileSuffix + "` names"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Env, flag, k.Cmds, strings.ReplaceAll(what, "|", "\\|"))
	}
	return b.String()
}

// String names the commands of the set.
func (c Command) String() string {
	var names []string
	for i, n := range commandNames {
		if c&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}
