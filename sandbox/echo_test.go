package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEchoRequestsLeaksTheRequest(t *testing.T) {
	s, err := New(Options{EchoRequests: true})
	if err != nil {
		t.Fatal(err)
	}
	m := DemoMerchants()[0]
	body := `{"merchantId":"` + m.ID + `","secretKey":"` + m.TestKey + `"}`
	req := httptest.NewRequest(http.MethodPost, "/v1/merchant/auth/token", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Basic bWVyOnNlY3JldA==")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("token exchange answered %d: %s", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("X-Echo-Authorization"); got != "Basic bWVyOnNlY3JldA==" {
		t.Errorf("X-Echo-Authorization = %q", got)
	}
	var ans struct {
		Data  map[string]any `json:"data"`
		Debug struct {
			Body    string              `json:"body"`
			Headers map[string][]string `json:"headers"`
		} `json:"debug"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Debug.Body, m.TestKey) || ans.Data["accessToken"] == nil {
		t.Errorf("answer does not echo the body next to the real data: %s", rec.Body)
	}
}
