package authtoken

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/redact"
)

func TestExchange(t *testing.T) {
	for _, tc := range []struct {
		name      string
		status    int
		body      string
		maxBody   int64
		want      Token
		wantErr   string // substring of the error, "" for success
		wantIs    error
		wantCode  int // *StatusError code
		wantInMsg string
	}{
		{name: "good answer", status: 200,
			body: `{"status":"success","data":{"accessToken":"tok-good-123456","tokenType":"Bearer","expiresIn":900,"environment":"TEST","merchantId":"m1"}}`,
			want: Token{AccessToken: "tok-good-123456", TokenType: "Bearer", ExpiresIn: 900 * time.Second, Environment: "TEST", MerchantID: "m1"}},
		{name: "unwrapped token is usable and said so", status: 200, body: `{"accessToken":"tok-top-level-1","expiresIn":"60"}`,
			want: Token{AccessToken: "tok-top-level-1", ExpiresIn: time.Minute, Unwrapped: true}},
		{name: "non-2xx with error envelope", status: 401,
			body:    `{"status":"error","statusCode":401,"message":"Invalid credentials: merchantId or secretKey is incorrect","error":"Unauthorized"}`,
			wantErr: "answered 401: Invalid credentials", wantCode: 401},
		{name: "non-2xx with message array", status: 400, body: `{"message":["merchantId should not be empty"]}`,
			wantErr: "merchantId should not be empty", wantCode: 400},
		{name: "oversize body", status: 200, body: `{"data":{"accessToken":"` + strings.Repeat("x", 100) + `"}}`, maxBody: 50,
			wantErr: "reading its body failed", wantIs: httpclient.ErrBodyTooLarge},
		{name: "non-JSON", status: 200, body: `<html>welcome</html>`, wantErr: "no data.accessToken", wantIs: ErrNoToken},
		{name: "missing accessToken", status: 200, body: `{"status":"success","data":{"tokenType":"Bearer"}}`,
			wantErr: "answered 200", wantIs: ErrNoToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got struct{ method, path, ctype, body string }
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b := make([]byte, 512)
				n, _ := r.Body.Read(b)
				got.method, got.path, got.ctype, got.body = r.Method, r.URL.Path, r.Header.Get("Content-Type"), string(b[:n])
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			hc := httpclient.New(httpclient.Options{Timeout: 5 * time.Second})
			ans, err := Exchange(context.Background(), hc, srv.URL+"/v1/merchant", Credentials{MerchantID: "m1", SecretKey: "sk_test_exch_secret"}, Options{MaxBody: tc.maxBody})
			if got.method != http.MethodPost || got.path != "/v1/merchant/auth/token" || got.ctype != "application/json" ||
				got.body != `{"merchantId":"m1","secretKey":"sk_test_exch_secret"}` {
				t.Fatalf("request %+v", got)
			}
			if ans == nil || ans.Status != tc.status {
				t.Fatalf("answer %+v, want status %d", ans, tc.status)
			}
			if tc.wantErr == "" {
				if err != nil || ans.Token != tc.want {
					t.Fatalf("got %+v, %v; want %+v", ans.Token, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || ans.Token.AccessToken != "" {
				t.Fatalf("error %v (token %q), want one saying %q", err, ans.Token.AccessToken, tc.wantErr)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Fatalf("error %v is not %v", err, tc.wantIs)
			}
			var se *StatusError
			if (tc.wantCode != 0) != errors.As(err, &se) || se != nil && se.Code != tc.wantCode {
				t.Fatalf("error %#v, want status error %d", err, tc.wantCode)
			}
		})
	}
}

// The secret is masked before the request leaves, the token once learned.
func TestExchangeRegistersSecretAndToken(t *testing.T) {
	// Neither has the shape of a key or a JWT: only registration masks them.
	const secret, tok = "plain-secret-registered-0042", "opaque.Token.Value.42"
	var masked bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		masked = !strings.Contains(redact.Text("key "+secret), secret)
		_, _ = w.Write([]byte(`{"data":{"accessToken":"` + tok + `"}}`))
	}))
	defer srv.Close()
	if _, err := Exchange(context.Background(), httpclient.New(httpclient.Options{}), srv.URL, Credentials{MerchantID: "m", SecretKey: secret}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !masked {
		t.Error("the secret key was not registered before the request was sent")
	}
	if got := redact.Text("said " + tok); strings.Contains(got, tok) {
		t.Errorf("the token learned is not masked: %q", got)
	}
}

// Every exchange is bounded in time even when the caller's context is not.
func TestExchangeTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	_, err := Exchange(context.Background(), httpclient.New(httpclient.Options{}), srv.URL, Credentials{MerchantID: "m", SecretKey: "sk_test_x"}, Options{Timeout: 100 * time.Millisecond})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("error %v after %v, want the deadline", err, time.Since(start))
	}
}
