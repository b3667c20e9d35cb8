package config

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/merchant-harness/mph/internal/modroot"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's generated table of variables")

// Every knob is one entry: a variable of its own, a usage, the commands
// that take it, a default its own flag accepts; a flag name means one
// thing in every command; a secret has no flag (the sandbox's own signing
// key aside: it is no credential of any target).
func TestKnobsAreDeclaredOnce(t *testing.T) {
	envs, flags := map[string]bool{}, map[string]string{}
	for _, k := range knobs {
		if envs[k.Env] || !strings.HasPrefix(k.Env, EnvPrefix) {
			t.Errorf("%s: declared twice or not an %s name", k.Env, EnvPrefix)
		}
		envs[k.Env] = true
		if k.Usage == "" || k.Cmds == 0 || k.dest == nil {
			t.Errorf("%s: no usage, command or destination", k.Env)
		}
		if k.Flag != "" {
			if other, ok := flags[k.Flag]; ok {
				t.Errorf("--%s: bound by %s and %s", k.Flag, other, k.Env)
			}
			flags[k.Flag] = k.Env
		}
		if k.Secret && k.Flag != "" && k.Cmds != CmdSandbox {
			t.Errorf("%s: a secret on the command line (--%s)", k.Env, k.Flag)
		}
		var s Settings
		if err := k.dest(&s).Set(k.Default); k.Default != "" && err != nil {
			t.Errorf("%s: default %q: %v", k.Env, k.Default, err)
		}
	}
	// Every Env constant of knobs.go names a knob.
	f, err := parser.ParseFile(token.NewFileSet(), "knobs.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				if len(vs.Values) == 0 {
					continue
				}
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok && strings.HasPrefix(vs.Names[0].Name, "Env") && lit.Kind == token.STRING {
					if v, _ := strconv.Unquote(lit.Value); v != EnvPrefix && !envs[v] {
						t.Errorf("%s = %s names no knob", vs.Names[0].Name, lit.Value)
					}
				}
			}
		}
	}
}

// Every command takes the target the same way: the flags a command binds
// are those of the table's knobs naming it.
func TestCommandsTakeTheTargetAlike(t *testing.T) {
	for cmd, want := range map[Command][]string{
		CmdProxy: {"base-url", "timeout", "max-body", "profile", "insecure-tls"},
		CmdLoad:  {"base-url", "timeout", "max-body", "profile", "insecure-tls", "merchant-id", "controls-url", "allow-live", "run-id", "follow-redirects", "retry-after-max"},
		CmdConform: {"base-url", "timeout", "max-body", "profile", "insecure-tls", "merchant-id", "controls-url", "allow-live", "run-id", "follow-redirects", "retry-after-max",
			"webhook-receiver-url", "webhooks-preconfigured", "slow", "no-teardown", "max-spend", "max-rps"},
		CmdOpenAPI: {"profile"},
		CmdSandbox: {"jwt-secret"},
	} {
		fs := pflag.NewFlagSet(cmd.String(), pflag.ContinueOnError)
		Bind(fs, cmd)
		var got []string
		fs.VisitAll(func(f *pflag.Flag) { got = append(got, f.Name) })
		if len(got) != len(want) {
			t.Errorf("%s binds %v, want %v", cmd, got, want)
		}
		for _, name := range want {
			if fs.Lookup(name) == nil {
				t.Errorf("%s: no --%s", cmd, name)
			}
		}
	}
}

// A command reads only its own knobs: the proxy takes no credentials.
func TestCommandsReadOnlyTheirKnobs(t *testing.T) {
	t.Setenv(EnvMerchantID, "mer_x")
	t.Setenv(EnvMaxBody, "2MiB")
	s, err := SettingsFromEnv(CmdProxy)
	if err != nil || s.Primary.MerchantID != "" || s.MaxBody != 2<<20 || s.Timeout != 10e9 {
		t.Fatalf("proxy settings %+v, %v", s, err)
	}
	t.Setenv(EnvMaxRPS, "-1")
	if _, err := SettingsFromEnv(CmdLoad); err != nil {
		t.Fatalf("load read conform's %s: %v", EnvMaxRPS, err)
	}
	if _, err := SettingsFromEnv(CmdConform); err == nil || !strings.Contains(err.Error(), EnvMaxRPS) {
		t.Fatalf("a negative rate: %v", err)
	}
}

// No MPH_ string is written outside the table: code quotes the constants
// (tests may write the names they set).
func TestEnvNamesOnlyInTheTable(t *testing.T) {
	var files int
	err := modroot.Sources(nil, func(path, rel string) error {
		if rel == "config/knobs.go" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.Contains(lit.Value, EnvPrefix) {
				t.Errorf("%s: %s: write the table's constant (config/knobs.go)", rel, lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 150 {
		t.Fatalf("read %d files: wrong directory?", files)
	}
}

const (
	envBlockStart = "<!-- gen-block:env -->\n"
	envBlockEnd   = "<!-- /gen-block:env -->"
)

// TestReadmeEnvironmentTable: the table of variables in
// docs/configuration.md (the README links to it) is the table's, knob by knob.
func TestReadmeEnvironmentTable(t *testing.T) {
	const path = "../docs/configuration.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme, table := string(b), ReadmeTable()
	i, j := strings.Index(readme, envBlockStart), strings.Index(readme, envBlockEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", path, envBlockStart, envBlockEnd)
	}
	if readme[i+len(envBlockStart):j] == table {
		return
	}
	if *updateReadme {
		if err := os.WriteFile(path, []byte(readme[:i+len(envBlockStart)]+table+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/configuration.md's table of variables is stale: go test ./config -run TestReadmeEnvironmentTable -update-readme")
}

// A deprecated name sets its flag's knob, with a one-line notice.
func TestDeprecatedFlagNames(t *testing.T) {
	t.Setenv(EnvBaseURL, "http://env.example/v1/merchant")
	fs := pflag.NewFlagSet("proxy", pflag.ContinueOnError)
	var notice strings.Builder
	fs.SetOutput(&notice)
	fl := Bind(fs, CmdProxy)
	fl.Deprecated("upstream", "base-url")
	fl.Deprecated("body-cap", "max-body")
	if err := fs.Parse([]string{"--upstream", "http://flag.example/v1/merchant", "--body-cap", "4096"}); err != nil {
		t.Fatal(err)
	}
	s, err := fl.Settings()
	if err != nil || s.BaseURL != "http://flag.example/v1/merchant" || s.MaxBody != 4096 {
		t.Fatalf("settings %+v, %v", s, err)
	}
	if n := strings.Count(notice.String(), "has been deprecated, use --"); n != 2 {
		t.Fatalf("notices: %q", notice.String())
	}
}
