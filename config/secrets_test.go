package config

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/merchant-harness/mph/redact"
)

// Every secret a target resolves from the environment or a file is masked by
// value afterwards, in every form, whatever its shape.
func TestResolveRegistersEverySecret(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte("FileKeyNoPrefix-2m4n6b8v\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		EnvBaseURL:             "https://ops:UrlPassw0rd-q1@api.example.test/v1/merchant",
		EnvMerchantID:          "mer_env_one",
		EnvSecretKey + "_FILE": keyFile,
		EnvMerchant2ID:         "mer_env_two",
		EnvSecretKey2:          "EnvKeyTwo-7c5x3z1a",
		EnvLiveMerchantID:      "mer_env_live",
		EnvLiveSecretKey:       "LiveKey-0p9o8i7u6y",
		EnvAdminKey:            "AdminKey-5t4r3e2w",
		EnvControlsURL:         "https://ctl:CtlPassw0rd-q2@api.example.test/_sandbox",
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	s, err := SettingsFromEnv(CmdConform)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(s, nil); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"FileKeyNoPrefix-2m4n6b8v", "EnvKeyTwo-7c5x3z1a", "LiveKey-0p9o8i7u6y", "AdminKey-5t4r3e2w", "UrlPassw0rd-q1", "CtlPassw0rd-q2"}
	for _, sec := range secrets {
		for _, form := range []string{sec, base64.StdEncoding.EncodeToString([]byte(sec))} {
			if got := redact.Text("x " + form + " y"); strings.Contains(got, form) {
				t.Errorf("%q not masked: %q", form, got)
			}
		}
	}
	basic := base64.StdEncoding.EncodeToString([]byte("mer_env_two:EnvKeyTwo-7c5x3z1a"))
	if got := redact.Text("creds " + basic); strings.Contains(got, basic) {
		t.Errorf("base64(merchantId:secret) not masked: %q", got)
	}
}
