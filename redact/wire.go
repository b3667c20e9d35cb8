package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Secrets met on the wire. A tool that sees other clients' traffic (the
// proxy) was configured with none of their secrets: it learns them from
// each exchange before it writes a byte about it (LearnHeader, LearnBody),
// so that every later rendering of the same value (percent-encoded in a
// form, in base64 in an echo, in a log line) is masked by value. Form and
// query pairs are masked by name too (maskFormPairs).

// A name=value pair of a form or a query string.
var formPairRe = regexp.MustCompile(`([A-Za-z0-9_.\[\]-]+)=([^&\s"'<>\\]*)`)

// formTriggers gate formPairRe: a pair named like a secret contains one.
var formTriggers = []string{"secret", "key", "token", "pin", "pass", "cvv", "cvc", "code", "pan", "cardnumber", "authorization", "cookie", "otp"}

// maskFormPairs masks the value of every pair named like a secret
// (secretKey=..., voucher_code=..., cardNumber=...), learning it.
func maskFormPairs(s string) string {
	return replaceSubmatch(formPairRe, s, func(sub []string) string {
		name, val := sub[1], sub[2]
		if val == "" || placeholder(val) {
			return sub[0]
		}
		plain, err := url.QueryUnescape(val)
		if err != nil {
			plain = val
		}
		switch classify("", name) {
		case secretMember:
			learnSecret(plain)
			return name + "=" + Mask
		case authMember:
			if schemeWord(plain) {
				return sub[0] // the scheme of a credential after a space (authRe masks it)
			}
			return name + "=" + url.QueryEscape(Authorization(plain))
		case tailMember:
			learnSecret(plain)
			return name + "=" + url.QueryEscape(KeepLast4(plain))
		case panMember:
			return name + "=" + PAN(plain)
		}
		return sub[0]
	})
}

// learnSecret registers a value met in a secret position on the wire
// (a secret key, a password, a voucher code), bounded like every learned
// value but, unlike an answer's, whatever it looks like.
func learnSecret(v string) {
	if len(v) < MinSecretLen || v == Mask || strings.HasPrefix(v, Mask) || patterned(v) {
		return
	}
	if p := reg.rep.Load(); p != nil && p.Replace(v) != v {
		return
	}
	if b := reg.bounded.Load(); b != nil && (*b)[v] {
		return
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.learned >= maxLearned {
		return
	}
	if len(v) < minCoreLen && isToken(v) {
		// Short: masked as a whole token only (a PIN inside a timestamp
		// or an amount is no PIN).
		reg.addBoundedLocked(v)
		return
	}
	if reg.addLocked(valueForms(v, len(v) >= minCoreLen)) {
		reg.learned++
		reg.rebuildLocked()
	}
}

// LearnHeader learns the credentials headers carry: a Basic credential
// (its password and the user:password pair), the credential of any other
// scheme, and the value of every header named like a key, secret, token
// or password. Call it before anything about the exchange is written.
func LearnHeader(h http.Header) {
	for k, vs := range h {
		for _, v := range vs {
			switch {
			case strings.HasSuffix(normName(k), "authorization"):
				learnAuthorization(v)
			case sensitiveHeader(k):
				learnSecret(strings.TrimSpace(v))
			}
		}
	}
}

func learnAuthorization(v string) {
	scheme, cred, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok {
		learnSecret(strings.TrimSpace(v))
		return
	}
	cred = strings.TrimSpace(cred)
	if strings.EqualFold(scheme, "basic") {
		if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
			if user, pw, ok := strings.Cut(string(b), ":"); ok && pw != "" {
				learnSecret(pw)
				learnPair(user, pw)
			}
		}
	}
	learnSecret(cred)
}

// learnPair registers "id:secret" in base64, as HTTP Basic carries it.
func learnPair(id, secret string) {
	if id == "" || len(secret) < MinSecretLen {
		return
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.learned < maxLearned && reg.addLocked(base64Forms(id+":"+secret)) {
		reg.learned++
		reg.rebuildLocked()
	}
}

// LearnBody learns the secrets of a body met on the wire: JSON members
// named like secrets at any nesting (and, in an object that also holds an
// id, the id:secret pair as HTTP Basic would carry it), and pairs of a
// form named so. Call it before anything about the exchange is written.
func LearnBody(b []byte) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return
	}
	if t[0] == '{' || t[0] == '[' {
		var v any
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			learnValue(v)
			return
		}
	}
	if bytes.IndexByte(t, '=') >= 0 {
		if q, err := url.ParseQuery(string(t)); err == nil {
			for k, vs := range q {
				for _, x := range vs {
					if k := classify("", k); k == secretMember || k == tailMember || k == authMember {
						learnSecret(x)
					}
				}
			}
		}
	}
}

// learnValue walks a decoded JSON value.
func learnValue(v any) {
	switch t := v.(type) {
	case map[string]any:
		var secrets, ids []string
		for k, x := range t {
			s, isStr := x.(string)
			switch classify("", k) {
			case secretMember, tailMember:
				if isStr {
					learnSecret(s)
					secrets = append(secrets, s)
				}
			case authMember:
				if isStr {
					learnAuthorization(s)
				}
			}
			if n := normName(k); isStr && (n == "id" || strings.HasSuffix(n, "id")) {
				ids = append(ids, s)
			}
			learnValue(x)
		}
		for _, id := range ids {
			for _, s := range secrets {
				learnPair(id, s)
			}
		}
	case []any:
		for _, x := range t {
			learnValue(x)
		}
	}
}
