package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/merchant-harness/mph/config"
	"github.com/merchant-harness/mph/redact"
)

// Reproduce lines. Each recorded exchange carries one shell line that sends
// the request again: valid POSIX shell, one line, runnable as it is printed
// (after the redaction every output goes through), with the environment
// variables of the README instead of the target and its secrets: the base
// URL as "$MPH_BASE_URL", the sandbox controls as "$MPH_CONTROLS_URL", a
// secret key as "$MPH_SECRET_KEY" (or the variable of the credentials it
// belongs to), the admin key as "$MPH_ADMIN_KEY". An authenticated request
// first exchanges those credentials for a token (TOKEN=$(curl …) && curl …),
// so the line runs on its own; a token the spec made up itself is not shown
// and comes from $TOKEN.

// credVars are the variables naming one set of credentials.
type credVars struct{ id, key string }

var (
	credMu    sync.RWMutex
	credNames = map[string]credVars{} // by secret key and by merchant id
)

// NameCredentials tells reproduce lines which environment variables hold
// these credentials (e.g. MPH_MERCHANT2_ID and MPH_SECRET_KEY2); unnamed
// credentials are shown as MPH_MERCHANT_ID and MPH_SECRET_KEY.
func NameCredentials(merchantID, secretKey, idVar, keyVar string) {
	credMu.Lock()
	defer credMu.Unlock()
	v := credVars{idVar, keyVar}
	if secretKey != "" {
		credNames["key:"+secretKey] = v
	}
	// One merchant may have several keys (TEST and LIVE): its id keeps
	// the variable it was first named with (the main merchant's).
	if _, named := credNames["id:"+merchantID]; merchantID != "" && !named {
		credNames["id:"+merchantID] = v
	}
}

func varsOf(merchantID, secretKey string) credVars {
	credMu.RLock()
	defer credMu.RUnlock()
	if v, ok := credNames["key:"+secretKey]; ok && secretKey != "" {
		return v
	}
	if v, ok := credNames["id:"+merchantID]; ok && merchantID != "" {
		return v
	}
	return credVars{config.EnvMerchantID, config.EnvSecretKey}
}

// curlReq is what a reproduce line is made of.
type curlReq struct {
	method  string
	url     string // the full URL, not redacted
	base    string // the client's base URL
	baseVar string // its variable ("" = shown literally)
	header  http.Header
	body    []byte
	// secretKey is a secret key the body carries (a token exchange), shown
	// as its variable; merchantID the merchant it belongs to.
	secretKey, merchantID string
	// auth is how the bearer token is obtained: "" none, "exchange" from
	// the credentials of tokenID/tokenKey, "key" the secret key itself,
	// "own" a token the spec made up ($TOKEN).
	auth              string
	tokenID, tokenKey string
	tokenBase         string // the base URL of the token exchange's variable
}

// line renders the reproduce line.
func (r curlReq) line() string {
	var b strings.Builder
	if r.auth == "exchange" {
		v := varsOf(r.tokenID, r.tokenKey)
		fmt.Fprintf(&b, `TOKEN=$(curl -sS -X POST %s -H 'Content-Type: application/json' --data-raw "{\"merchantId\":\"$%s\",\"secretKey\":\"$%s\"}" | sed -E 's/.*"accessToken" *: *"([^"]+)".*/\1/') && `,
			r.urlWord(r.tokenBase, r.base+TokenPath), v.id, v.key)
	}
	binary := len(r.body) > 0 && !printable(r.body)
	if binary {
		fmt.Fprintf(&b, "printf '%s' | ", octal(r.body))
	}
	b.WriteString("curl -sS")
	if r.method != http.MethodGet || len(r.body) > 0 {
		b.WriteString(" -X " + r.method)
	}
	b.WriteString(" " + r.urlWord(r.baseVar, r.url))
	r.writeHeaders(&b)
	switch {
	case binary:
		b.WriteString(" --data-binary @-")
	case len(r.body) > 0:
		b.WriteString(" --data-raw " + r.bodyWord())
	}
	return b.String()
}

// urlWord is the URL as one shell word: "$VAR"'/rest' below a named base,
// else the whole URL single-quoted; redacted either way.
func (r curlReq) urlWord(baseVar, u string) string {
	if baseVar != "" && r.base != "" && strings.HasPrefix(u, r.base) {
		w := `"$` + baseVar + `"`
		if rest := u[len(r.base):]; rest != "" {
			w += shellQuote(redact.Text(rest))
		}
		return w
	}
	return shellQuote(redact.Text(u))
}

func (r curlReq) writeHeaders(b *strings.Builder) {
	keys := make([]string, 0, len(r.header))
	for k := range r.header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range r.header[k] {
			switch http.CanonicalHeaderKey(k) {
			case "Authorization":
				scheme, _, _ := strings.Cut(v, " ")
				switch r.auth {
				case "exchange":
					b.WriteString(` -H "Authorization: ` + scheme + ` $TOKEN"`)
				case "key":
					b.WriteString(` -H "Authorization: ` + scheme + ` $` + varsOf(r.tokenID, r.tokenKey).key + `"`)
				default:
					b.WriteString(` -H "Authorization: ` + scheme + ` ${TOKEN:?not shown: the spec sent its own}"`)
				}
			case "X-Sandbox-Admin-Key":
				b.WriteString(` -H "X-Sandbox-Admin-Key: $` + config.EnvAdminKey + `"`)
			case "X-Merchant-Id":
				if v != "" && (v == r.tokenID || v == r.merchantID) {
					b.WriteString(` -H "X-Merchant-Id: $` + varsOf(v, "").id + `"`)
				} else {
					b.WriteString(" -H " + shellQuote(k+": "+redact.Text(v)))
				}
			case "User-Agent", "Accept-Encoding", "Content-Length":
			default:
				b.WriteString(" -H " + shellQuote(k+": "+redact.Text(v)))
			}
		}
	}
}

// bodyWord is the body as one shell word: single-quoted and redacted, or,
// when it carries a secret key, double-quoted with the key's variable (and
// the merchant's) in its place.
func (r curlReq) bodyWord() string {
	s := string(r.body)
	if r.secretKey == "" || !strings.Contains(s, r.secretKey) {
		return shellQuote(bodyText(r.body))
	}
	v := varsOf(r.merchantID, r.secretKey)
	parts := strings.Split(s, r.secretKey)
	for i, p := range parts {
		p = redact.Text(p)
		if r.merchantID != "" {
			p = strings.ReplaceAll(dquoteEscape(p), dquoteEscape(`"`+r.merchantID+`"`), `\"$`+v.id+`\"`)
		} else {
			p = dquoteEscape(p)
		}
		parts[i] = p
	}
	return `"` + strings.Join(parts, "$"+v.key) + `"`
}

// bodyText is a body as shown: redacted, and byte for byte the body sent
// when redaction found nothing to mask in it (redact.JSON re-encodes).
func bodyText(body []byte) string {
	red := redact.JSON(body)
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		if plain, err := json.Marshal(v); err == nil && bytes.Equal(plain, red) {
			return redact.Text(string(body))
		}
	}
	return string(red)
}

// shellQuote quotes s for a POSIX shell in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dquoteEscape escapes s for the inside of a double-quoted shell word.
func dquoteEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(s)
}

// printable reports whether a body can stand in a single-quoted word on
// one line: valid UTF-8 without control characters.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// octal renders bytes for printf's format: printable ASCII as is (%, \ and '
// escaped), the rest as \ooo.
func octal(b []byte) string {
	var s strings.Builder
	for _, c := range []byte(redact.Text(string(b))) {
		switch {
		case c == '%':
			s.WriteString("%%")
		case c == '\\':
			s.WriteString(`\\`)
		case c == '\'':
			s.WriteString(`\047`)
		case c >= 0x20 && c < 0x7f:
			s.WriteByte(c)
		default:
			fmt.Fprintf(&s, `\%03o`, c)
		}
	}
	return s.String()
}

// ReproduceTokenExchange is the reproduce line of a token exchange of these
// credentials at baseURL (pre-flight's), in the variables of the README.
func ReproduceTokenExchange(baseURL, merchantID, secretKey string) string {
	base := strings.TrimRight(baseURL, "/")
	body := TokenBody{MerchantID: merchantID, SecretKey: secretKey}.Body()
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	return curlReq{method: http.MethodPost, url: base + TokenPath, base: base, baseVar: config.EnvBaseURL, header: h, body: body,
		secretKey: secretKey, merchantID: merchantID}.line()
}
