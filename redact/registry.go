package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// The registry holds secret VALUES: those the harness was configured with
// (secret keys of every merchant, admin key, webhook secret, URL passwords),
// registered by the target settings when they are resolved, and those
// learned from the structural positions of answers (a voucher code, a PIN or
// a token met in a member named like a secret). Text masks each of them
// wherever it appears, whatever its shape: a secret key without the sk_
// prefix is found by value, not by pattern.
//
// Every value is masked in the forms a target, a library or a log line may
// render it in: literally, percent-encoded, JSON-escaped, hex, base64
// (standard and URL alphabets, padded or not), "id:secret" in base64 (HTTP
// Basic), and
// for long values the stable middle of its base64 at any of the three byte
// alignments, so a secret inside any larger base64 text (an encoded JSON
// body) is masked too.

const (
	// MinSecretLen is the shortest configured value masked wherever it
	// stands; a shorter one would mask ordinary words and numbers inside
	// others, so it is masked only as a whole token (see Register).
	MinSecretLen = 4
	// minLearnedLen is the shortest value learned from an answer (a 4-digit
	// PIN is masked structurally, never by value).
	minLearnedLen = 6
	// minCoreLen is the shortest value whose shifted base64 cores are
	// registered: the core of a shorter value is too short to be distinctive.
	minCoreLen = 12
	// maxLearned bounds the values learned from answers during one process.
	maxLearned = 1024
)

type registry struct {
	mu      sync.Mutex
	forms   map[string]bool
	learned int
	rep     atomic.Pointer[strings.Replacer]
	// bounded holds short learned values (a 6-digit PIN, a short voucher
	// code), masked only as a whole token: as substrings they would match
	// inside timestamps, ids and amounts and corrupt the text around them.
	bounded atomic.Pointer[map[string]bool]
}

var reg = &registry{forms: map[string]bool{}}

// Register adds configured secret values (secret keys, admin key, webhook
// secret, passwords). Empty values are ignored. A value shorter than
// MinSecretLen made of token characters (letters, digits, - and _) is masked
// only where it stands as a whole token; a short value with other
// characters is distinctive enough to be masked wherever it stands.
func Register(values ...string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	changed := false
	for _, v := range values {
		if v == "" {
			continue
		}
		if len(v) < MinSecretLen && isToken(v) {
			reg.addShortLocked(v)
			continue
		}
		if len(v) < MinSecretLen {
			for _, f := range escapedForms(v) {
				changed = changed || !reg.forms[f]
				reg.forms[f] = true
			}
			continue
		}
		changed = reg.addLocked(valueForms(v, len(v) >= minCoreLen)) || changed
	}
	if changed {
		reg.rebuildLocked()
	}
}

// RegisterCredentials registers a secret and the "id:secret" pair as HTTP
// Basic carries it (base64 in both alphabets, padded or not).
func RegisterCredentials(id, secret string) {
	Register(secret)
	if id == "" || len(secret) < MinSecretLen {
		return
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if reg.addLocked(base64Forms(id + ":" + secret)) {
		reg.rebuildLocked()
	}
}

// RegisterURL registers the password of a URL's userinfo (and the
// "user:password" pair in base64, which an HTTP client sends as Basic
// authorization for such a URL). URLs without a password change nothing.
func RegisterURL(raw string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User == nil {
		return
	}
	if pw, ok := u.User.Password(); ok {
		RegisterCredentials(u.User.Username(), pw)
	}
}

// Learn registers a secret value the harness met in an answer outside a
// body it redacts (the access token of a token exchange), bounded and
// filtered like every learned value.
func Learn(v string) { learn(v) }

// learn registers a value met in a secret position of an answer, so that
// the same value is masked later in free text (a failure message quoting a
// voucher code). Prose-like values (lower-case words) are not learned.
func learn(v string) {
	if len(v) < minLearnedLen || v == Mask || proseLike(v) || patterned(v) {
		return
	}
	if p := reg.rep.Load(); p != nil && p.Replace(v) != v {
		return // already known
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
		reg.addBoundedLocked(v)
		return
	}
	if reg.addLocked(valueForms(v, false)) {
		reg.learned++
		reg.rebuildLocked()
	}
}

// patterned reports whether a pattern masks v already (a JWT, an sk_ key):
// learning it would only grow the registry (a run sees many tokens).
func patterned(v string) bool {
	return jwtRe.MatchString(v) || keyRe.MatchString(v)
}

func proseLike(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'a' && c <= 'z' || c == ' ') {
			return false
		}
	}
	return true
}

// replaceRegistered masks every registered form in s.
func replaceRegistered(s string) string {
	if p := reg.rep.Load(); p != nil {
		s = p.Replace(s)
	}
	if b := reg.bounded.Load(); b != nil {
		s = replaceTokens(s, *b)
	}
	return s
}

// addShortLocked registers a configured secret shorter than MinSecretLen
// as a whole token.
func (r *registry) addShortLocked(v string) {
	next := map[string]bool{v: true}
	if old := r.bounded.Load(); old != nil {
		for k := range *old {
			next[k] = true
		}
	}
	r.bounded.Store(&next)
}

// addBoundedLocked registers a short learned value and its base64 forms
// that are tokens themselves, copying the map so readers need no lock.
func (r *registry) addBoundedLocked(v string) {
	next := map[string]bool{}
	if old := r.bounded.Load(); old != nil {
		for k := range *old {
			next[k] = true
		}
	}
	for _, f := range append([]string{v}, base64Forms(v)...) {
		if len(f) >= MinSecretLen && isToken(f) {
			next[f] = true
		}
	}
	r.learned++
	r.bounded.Store(&next)
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func isToken(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isTokenByte(v[i]) {
			return false
		}
	}
	return v != ""
}

// replaceTokens masks every maximal run of token bytes that is in set.
func replaceTokens(s string, set map[string]bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isTokenByte(s[j]) {
			j++
		}
		if set[s[i:j]] {
			b.WriteString(s[last:i])
			b.WriteString(Mask)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (r *registry) addLocked(forms []string) bool {
	changed := false
	for _, f := range forms {
		if len(f) >= MinSecretLen && f != Mask && !r.forms[f] {
			r.forms[f] = true
			changed = true
		}
	}
	return changed
}

// rebuildLocked compiles the forms into one Replacer, longest first: at a
// given position the Replacer takes the first pattern in argument order.
func (r *registry) rebuildLocked() {
	all := make([]string, 0, len(r.forms))
	for f := range r.forms {
		all = append(all, f)
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	pairs := make([]string, 0, 2*len(all))
	for _, f := range all {
		pairs = append(pairs, f, Mask)
	}
	r.rep.Store(strings.NewReplacer(pairs...))
}

// escapedForms are v as it stands and as a URL or a JSON string escape it.
func escapedForms(v string) []string {
	forms := []string{v, url.QueryEscape(v), url.PathEscape(v)}
	if b, err := json.Marshal(v); err == nil {
		forms = append(forms, strings.Trim(string(b), `"`))
	}
	return forms
}

// valueForms are the renderings of one secret value that Text masks: as
// it stands, escaped, in base64 and in hex (lower and upper case, which
// also match inside any longer hex text: hex keeps byte boundaries).
func valueForms(v string, cores bool) []string {
	forms := append(escapedForms(v), base64Forms(v)...)
	forms = append(forms, hex.EncodeToString([]byte(v)), strings.ToUpper(hex.EncodeToString([]byte(v))))
	if cores {
		forms = append(forms, base64Cores(v)...)
	}
	return forms
}

var encodings = []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding}

func base64Forms(v string) []string {
	out := make([]string, 0, len(encodings))
	for _, e := range encodings {
		out = append(out, e.EncodeToString([]byte(v)))
	}
	return out
}

// base64Cores are the parts of v's base64 that do not depend on the bytes
// around v, for v starting at each of the three byte alignments of a longer
// base64 text: with p bytes before v, the characters wholly inside v run
// from bit 8p to bit 8(p+len v).
func base64Cores(v string) []string {
	var out []string
	for p := 0; p < 3; p++ {
		buf := append(make([]byte, p), v...)
		from, to := (8*p+5)/6, 8*(p+len(v))/6
		for _, e := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if enc := e.EncodeToString(buf); to <= len(enc) && to-from >= minCoreLen {
				out = append(out, enc[from:to])
			}
		}
	}
	return out
}

// minCutPrefix is the shortest start of a registered secret CutTail masks.
const minCutPrefix = 4

// CutTail masks the end of a text cut at a read limit when that end is the
// start of a registered secret (minCutPrefix characters of it or more): the
// part past the cut is what would have let Text recognise the secret.
func CutTail(b []byte) []byte {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	cut := 0
	for f := range reg.forms {
		for k := min(len(f)-1, len(b)); k >= minCutPrefix && k > cut; k-- {
			if bytes.HasSuffix(b, []byte(f[:k])) {
				cut = k
				break
			}
		}
	}
	if cut == 0 {
		return b
	}
	return append(b[:len(b)-cut:len(b)-cut], Mask...)
}
