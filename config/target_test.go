package config

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestSettingsFromEnv(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte("sk_test_from_file\n"), 0o600)
	t.Setenv(EnvBaseURL, "https://api.example.test/v1/merchant")
	t.Setenv(EnvMerchantID, "mer_1")
	t.Setenv(EnvSecretKey+"_FILE", keyFile)
	t.Setenv(EnvTimeout, "3s")
	t.Setenv(EnvAllowLive, "true")
	s, err := SettingsFromEnv(CmdConform)
	if err != nil {
		t.Fatal(err)
	}
	if s.Primary.SecretKey != "sk_test_from_file" || s.Timeout.String() != "3s" || !s.AllowLive {
		t.Fatalf("settings: %+v", s)
	}
	if err := s.validateRemote(); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvTimeout, "soon")
	if _, err := SettingsFromEnv(CmdConform); err == nil {
		t.Fatal("a bad timeout must be a usage error")
	}
}

func TestValidateRemote(t *testing.T) {
	ok := Credentials{"m", "k"}
	cases := []struct {
		name string
		s    Settings
		want string
	}{
		{"not a url", Settings{BaseURL: "::", Primary: ok}, "not an http(s) URL"},
		{"wrong root", Settings{BaseURL: "http://h/v2/merchant", Primary: ok}, "/v1/merchant"},
		{"no credentials", Settings{BaseURL: "http://h/v1/merchant"}, EnvSecretKey},
		{"api prefix ok", Settings{BaseURL: "http://h/api/v1/merchant/", Primary: ok}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.validateRemote()
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestCredentialsNeverPrintTheKey(t *testing.T) {
	c := Credentials{"mer_1", "sk_test_secret"}
	if strings.Contains(c.String(), "sk_test") {
		t.Fatal(c.String())
	}
}

func TestPreflightFailuresAreOneClearMessage(t *testing.T) {
	answer := func(code int, body string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			w.Write([]byte(body))
		}))
	}
	unauthorized := answer(401, `{"status":"error"}`)
	defer unauthorized.Close()
	notFound := answer(404, `{}`)
	defer notFound.Close()
	notAPI := answer(200, `<html>`)
	defer notAPI.Close()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	deadAddr := closed.Addr().String()
	closed.Close()

	cases := []struct{ name, base, want string }{
		{"wrong credentials", unauthorized.URL, "rejected the credentials"},
		{"not the merchant root", notFound.URL, "404"},
		{"not the API", notAPI.URL, "not with an access token"},
		{"untrusted certificate", tlsSrv.URL, "TLS certificate"},
		{"plain http to a TLS port", strings.Replace(tlsSrv.URL, "https", "http", 1), ""},
		{"nothing listening", "http://" + deadAddr, "cannot reach"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := &Config{BaseURL: c.base + "/v1/merchant", Primary: Credentials{"mer_x", "sk_test_x"}, Options: Options{Timeout: 2e9}}
			_, err := Preflight(context.Background(), cfg)
			if err == nil {
				t.Fatal("want a pre-flight error")
			}
			if strings.Contains(err.Error(), "sk_test_x") {
				t.Fatalf("secret key leaked: %v", err)
			}
			if c.want != "" && !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestPreflightDiscoversControls(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/merchant/auth/token":
			w.Write([]byte(`{"status":"success","data":{"accessToken":"a.b.c","environment":"TEST"}}`))
		case "/_sandbox/capabilities":
			w.Write([]byte(`{"sandbox":true,"controls":["clock"]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cfg := &Config{BaseURL: srv.URL + "/v1/merchant", Primary: Credentials{"m", "k"}, Options: Options{Timeout: 2e9}}
	f, err := Preflight(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f.Environment != "TEST" || !f.Controls || cfg.ControlsURL != srv.URL+"/_sandbox" {
		t.Fatalf("facts %+v, controls %q", f, cfg.ControlsURL)
	}
}

func TestFlagsWinOverEnvironmentOnlyWhenGiven(t *testing.T) {
	t.Setenv(EnvBaseURL, "http://env.example/v1/merchant")
	t.Setenv(EnvProfile, "env.yaml")
	t.Setenv(EnvTimeout, "")
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fl := Bind(fs, CmdConform)
	if err := fs.Parse([]string{"--profile", "flag.yaml", "--run-id", "r1"}); err != nil {
		t.Fatal(err)
	}
	s, err := fl.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "http://env.example/v1/merchant" || s.ProfilePath != "flag.yaml" || s.RunID != "r1" {
		t.Fatalf("merge: %+v", s)
	}
	if s.Timeout != 10*time.Second {
		t.Fatalf("timeout should fall back to the flag default, got %v", s.Timeout)
	}
}
