package httpclient

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// sensitiveHeaders never cross an origin change.
var sensitiveHeaders = []string{"Authorization", "X-Sandbox-Admin-Key", "Cookie", "Proxy-Authorization"}

// RedirectError is a redirect the harness refused to follow.
type RedirectError struct {
	Status      int
	From, To    *url.URL // the request redirected and where it was sent (userinfo stripped)
	CrossOrigin bool     // refused because To has another origin (follow mode)
	TooMany     bool     // refused because the same-origin hop budget is spent
}

func (e *RedirectError) Error() string {
	to := e.To.String()
	switch {
	case e.TooMany:
		return fmt.Sprintf("the target answered %d to %s: stopped after %d same-origin redirects", e.Status, to, maxSameOriginHops)
	case e.CrossOrigin:
		return fmt.Sprintf("the target answered %d to %s, another origin than %s: not followed, no credential or body is sent there; should the base URL be %s?", e.Status, to, Origin(e.From), e.SuggestedBase())
	}
	return fmt.Sprintf("the target answered %d to %s: redirects are not followed (--follow-redirects follows same-origin ones); should the base URL be %s?", e.Status, to, e.SuggestedBase())
}

// SuggestedBase guesses the base URL the redirect points at: the redirect
// target less the path suffix it shares with the redirected request (at a
// segment boundary), without query or userinfo.
func (e *RedirectError) SuggestedBase() string {
	from, to := strings.Split(e.From.Path, "/"), strings.Split(e.To.Path, "/")
	n := 0
	for n < len(from)-1 && n < len(to)-1 && from[len(from)-1-n] == to[len(to)-1-n] {
		n++
	}
	// Keep the shared tail below the merchant root: drop only what follows
	// /v1/merchant in the request (the call's own path), when it is shared.
	if i := strings.Index(e.From.Path, "/v1/merchant"); i >= 0 {
		call := strings.Split(strings.TrimPrefix(e.From.Path[i+len("/v1/merchant"):], "/"), "/")
		if len(call) == 1 && call[0] == "" {
			call = nil
		}
		if len(call) <= n {
			n = len(call)
		}
	}
	u := *e.To
	u.User, u.RawQuery, u.Fragment, u.RawPath = nil, "", "", ""
	u.Path = strings.Join(to[:len(to)-n], "/")
	return strings.TrimRight(u.String(), "/")
}

// CheckRedirect returns the redirect policy: refuse everything, or (follow)
// follow same-origin redirects only, at most maxSameOriginHops, refusing any
// other origin before a byte is sent there.
func CheckRedirect(follow bool) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		e := &RedirectError{From: stripUser(first.URL), To: stripUser(req.URL)}
		if req.Response != nil {
			e.Status = req.Response.StatusCode
		}
		if !SameOrigin(req.URL, via[len(via)-1].URL) || !SameOrigin(req.URL, first.URL) {
			// Never reached with a credential: the request is refused. The
			// headers are dropped all the same, in case a caller ignores the error.
			for _, h := range sensitiveHeaders {
				req.Header.Del(h)
			}
			req.Body, req.GetBody = nil, nil
			e.CrossOrigin = follow
			return e
		}
		if !follow {
			return e
		}
		if len(via) > maxSameOriginHops {
			e.TooMany = true
			return e
		}
		return nil
	}
}

// IsRedirect reports whether err is (or wraps) a refused redirect.
func IsRedirect(err error) bool {
	var re *RedirectError
	return errors.As(err, &re)
}

// SameOrigin reports whether a and b have the same scheme, host and port
// (default ports made explicit; host names compared as written, so
// localhost and 127.0.0.1 are different origins).
func SameOrigin(a, b *url.URL) bool {
	return Origin(a) == Origin(b)
}

// Origin is scheme://host:port, lower-cased, with the default port explicit.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func stripUser(u *url.URL) *url.URL {
	cp := *u
	cp.User = nil
	return &cp
}
