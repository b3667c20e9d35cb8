package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/merchant-harness/mph/httpclient"
	"github.com/merchant-harness/mph/loadtest/scrub"
	"github.com/merchant-harness/mph/loadtest/tokens"
)

// Setup and teardown requests: made outside the timed run, retried on 429
// (honouring Retry-After) and on one 401 (a fresh token), each seen to its
// end so that every write the target applied is known.

// doJSON performs one setup call, retrying on 429 honouring Retry-After up
// to retryAfterMax. The exchange itself is not cancelled by ctx (a write the
// target may have applied must be seen to the end, bounded by the client's
// timeout); ctx stops the waits between attempts.
func doJSON(ctx context.Context, hc *http.Client, retryAfterMax time.Duration, src *tokens.Source, method, url string, in any, out any) error {
	b, _ := json.Marshal(in)
	for attempt := 0; ; attempt++ {
		if attempt > 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		code, hdr, rb, rerr, err := exchange(ctx, hc, src, method, url, b)
		if err != nil {
			return err
		}
		if code == http.StatusTooManyRequests && attempt < 8 {
			wait := time.Duration(100<<attempt) * time.Millisecond
			ra, ok, err := httpclient.RetryAfterHeader(hdr, retryAfterMax)
			if err != nil {
				return fmt.Errorf("%s %s answered 429: %w", method, scrub.URL(url), err)
			}
			if ok && ra > wait {
				wait = ra
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		if code == http.StatusUnauthorized && src != nil && attempt < 2 {
			src.Unauthorized(time.Now())
			select { // a short pause before the retry with a fresh token
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		if code < 200 || code >= 300 {
			return fmt.Errorf("%s %s answered %d", method, scrub.URL(url), code)
		}
		if rerr != nil {
			return fmt.Errorf("%s %s answered %d but reading its body failed: %w", method, scrub.URL(url), code, rerr)
		}
		if out != nil {
			return json.Unmarshal(rb, out)
		}
		return nil
	}
}

// exchange sends one request on a context detached from ctx's cancellation
// and bounded by the client's timeout (30 s when it has none). It returns
// the status, headers and body of the answer, the error reading that body
// (rerr), and err when no answer came.
func exchange(ctx context.Context, hc *http.Client, src *tokens.Source, method, url string, b []byte) (code int, hdr http.Header, rb []byte, rerr, err error) {
	to := hc.Timeout
	if to <= 0 {
		to = 30 * time.Second
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), to)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, url, bytes.NewReader(b))
	if err != nil {
		return 0, nil, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if src != nil {
		for k, v := range src.Header() {
			req.Header[k] = v
		}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	defer resp.Body.Close()
	rb, rerr = httpclient.ReadBody(resp.Body, setupMaxBody)
	return resp.StatusCode, resp.Header, rb, rerr, nil
}

// pointer resolves a simple JSON pointer ("/data/customerId").
func pointer(v any, p string) any {
	if p == "" || p == "/" {
		return v
	}
	for _, part := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch t := v.(type) {
		case map[string]any:
			v = t[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}
