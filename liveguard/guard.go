package liveguard

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/httpclient"
)

// ErrLiveWrite is wrapped by every write a Guard refuses.
var ErrLiveWrite = errors.New("refused: this request would write with LIVE credentials; pass --allow-live to allow it")

// Guard is a transport that refuses every write (any method but GET, HEAD
// and OPTIONS, the token exchange excepted) carrying a LIVE credential:
// a bearer token obtained through it for LIVE credentials, a token whose JWT
// claims say LIVE, or a LIVE secret key in any credential position (bearer,
// Basic). It learns each token at its exchange, deciding it by the key, the
// answer's environment and the token's claims; credentials decided LIVE
// otherwise (by /cards/config) are named with LiveSecret. Requests without a
// credential pass: they cannot spend.
type Guard struct {
	next http.RoundTripper
	*known
}

// known is what the guards of one process share.
type known struct {
	allow bool

	mu      sync.Mutex
	secrets map[string]bool // secret keys known LIVE
	tokens  map[string]bool // access tokens known LIVE
}

// NewGuard guards next; with allow (the operator consented, or the target
// is the embedded sandbox) it refuses nothing.
func NewGuard(next http.RoundTripper, allow bool) *Guard {
	if next == nil {
		next = httpclient.NewTransport(httpclient.Options{})
	}
	return &Guard{next: next, known: &known{allow: allow, secrets: map[string]bool{}, tokens: map[string]bool{}}}
}

// Wrap returns a copy of hc whose transport is guarded, and the guard.
func Wrap(hc *http.Client, allow bool) (*http.Client, *Guard) {
	g := NewGuard(hc.Transport, allow)
	cp := *hc
	cp.Transport = g
	return &cp, g
}

// Client returns a copy of hc guarded by a guard sharing what g knows (the
// tokens learned through any of them, the LIVE secrets).
func (g *Guard) Client(hc *http.Client) *http.Client {
	next := hc.Transport
	if next == nil {
		next = httpclient.NewTransport(httpclient.Options{Timeout: hc.Timeout})
	}
	cp := *hc
	cp.Transport = &Guard{next: next, known: g.known}
	return &cp
}

// LiveSecret names secret keys known to be LIVE (configured LIVE
// credentials, or credentials a Verdict found LIVE).
func (g *Guard) LiveSecret(keys ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, k := range keys {
		if k != "" {
			g.secrets[k] = true
		}
	}
}

// exchangeMaxBody bounds what the guard keeps of a token exchange.
const exchangeMaxBody = 64 << 10

// RoundTrip refuses LIVE writes and learns the tokens of exchanges.
func (g *Guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.allow {
		return g.next.RoundTrip(r)
	}
	switch {
	case r.Method == http.MethodGet, r.Method == http.MethodHead, r.Method == http.MethodOptions:
		return g.next.RoundTrip(r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, authtoken.Path):
		return g.exchange(r)
	}
	if why := g.liveCredential(r.Header.Get("Authorization")); why != "" {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, fmt.Errorf("%s %s (%s): %w", r.Method, r.URL.Path, why, ErrLiveWrite)
	}
	return g.next.RoundTrip(r)
}

// liveCredential says why an Authorization value is LIVE ("" when it is not).
func (g *Guard) liveCredential(auth string) string {
	scheme, cred, _ := strings.Cut(strings.TrimSpace(auth), " ")
	cred = strings.TrimSpace(cred)
	if cred == "" {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch strings.ToLower(scheme) {
	case "basic":
		if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
			if _, pw, ok := strings.Cut(string(b), ":"); ok && (g.secrets[pw] || KeyEnvironment(pw) == Live) {
				return "a LIVE secret key in Basic credentials"
			}
		}
		return ""
	}
	switch {
	case g.tokens[cred]:
		return "a token of LIVE credentials"
	case g.secrets[cred] || KeyEnvironment(cred) == Live:
		return "a LIVE secret key as the bearer"
	case ClaimsEnvironment(cred) != "" && ClaimsEnvironment(cred) != Test:
		return "a token whose JWT claims say " + ClaimsEnvironment(cred)
	}
	return ""
}

// exchange forwards a token exchange and learns whether its token is LIVE.
func (g *Guard) exchange(r *http.Request) (*http.Response, error) {
	var secret string
	if r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, exchangeMaxBody))
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(b), rest), rest}
		if err == nil {
			if c, ok := authtoken.ParseCredentials(b); ok {
				secret = c.SecretKey
			}
		}
	}
	resp, err := g.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &learnBody{rc: resp.Body, g: g, secret: secret, status: resp.StatusCode, header: resp.Header}
	return resp, nil
}

// learnBody keeps the first bytes of a token answer and decides its token
// at the end of the body (or when it is closed).
type learnBody struct {
	rc     io.ReadCloser
	g      *Guard
	secret string
	status int
	header http.Header
	buf    []byte
	once   sync.Once
}

func (l *learnBody) Read(p []byte) (int, error) {
	n, err := l.rc.Read(p)
	if room := exchangeMaxBody - len(l.buf); room > 0 {
		l.buf = append(l.buf, p[:min(n, room)]...)
	}
	if err == io.EOF {
		l.learn()
	}
	return n, err
}

func (l *learnBody) Close() error {
	l.learn()
	return l.rc.Close()
}

func (l *learnBody) learn() {
	l.once.Do(func() {
		tok, err := authtoken.Decode(l.status, l.header, l.buf)
		if err != nil || tok.AccessToken == "" {
			return
		}
		g := l.g
		g.mu.Lock()
		known := g.secrets[l.secret]
		g.mu.Unlock()
		v := Decide(Signals{Key: KeyEnvironment(l.secret), Token: tok.Environment, Claims: ClaimsEnvironment(tok.AccessToken)})
		if known || v.Live {
			g.mu.Lock()
			g.tokens[tok.AccessToken] = true
			g.mu.Unlock()
		}
	})
}
