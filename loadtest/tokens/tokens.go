// Package tokens is the load driver's shared bearer-token source. Requests in
// the timed path only read the current token (an atomic load of an immutable
// header map); fetching happens in the background: before the attack, at a
// fraction of expiresIn (default authtoken.RefreshFraction, every cache's:
// 80%), and when a 401 shows the token was refused.
package tokens

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/merchant-harness/mph/authtoken"
	"github.com/merchant-harness/mph/httpclient"
)

// Token is one fetched access token.
type Token struct {
	Value       string
	ExpiresIn   time.Duration
	Obtained    time.Time
	Environment string // TEST or LIVE, as the token answer states it ("" when absent)
}

// Fetcher obtains a new token.
type Fetcher func(ctx context.Context) (Token, error)

// HTTPFetcher exchanges the credentials through authtoken (each exchange
// bounded by authtoken's timeout and the client's).
func HTTPFetcher(client *http.Client, baseURL, merchantID, secretKey string) Fetcher {
	creds := authtoken.Credentials{MerchantID: merchantID, SecretKey: secretKey}
	return func(ctx context.Context) (Token, error) {
		ans, err := authtoken.Exchange(ctx, client, baseURL, creds, authtoken.Options{})
		if err != nil {
			return Token{}, err
		}
		t := ans.Token
		return Token{Value: t.AccessToken, ExpiresIn: t.Lifetime(), Obtained: time.Now(), Environment: t.Environment}, nil
	}
}

type state struct {
	tok    Token
	header http.Header // immutable once published
}

// Source is the shared token source.
type Source struct {
	fetch    Fetcher
	fraction float64
	extra    http.Header
	raMax    time.Duration
	attempts int

	cur      atomic.Pointer[state]
	kick     chan struct{}
	mu       sync.Mutex
	refresh  atomic.Int64 // successful fetches, including the first
	last401  atomic.Int64 // latest send time (unix ns) of a request refused with 401
	failures atomic.Int64
	stop     context.CancelFunc
	done     chan struct{}
	now      func() time.Time
}

// Options of a Source.
type Options struct {
	// RefreshAt is the fraction of expiresIn after which the token is renewed
	// (default authtoken.RefreshFraction, every cache's).
	RefreshAt float64
	// Header is added to every request header map (e.g. Content-Type).
	Header http.Header
	// RetryAfterMax is the longest Retry-After of a 429 honoured (default
	// 30 s): Start gives up with a clear error beyond it, the refresher
	// waits at most that long.
	RetryAfterMax time.Duration
	// StartAttempts bounds the 429 retries of Start (default 8).
	StartAttempts int
}

// New returns a source; call Start before use.
func New(f Fetcher, o Options) *Source {
	if o.RefreshAt <= 0 || o.RefreshAt >= 1 {
		o.RefreshAt = authtoken.RefreshFraction
	}
	if o.StartAttempts <= 0 {
		o.StartAttempts = 8
	}
	return &Source{fetch: f, fraction: o.RefreshAt, extra: o.Header, raMax: o.RetryAfterMax, attempts: o.StartAttempts,
		kick: make(chan struct{}, 1), now: time.Now}
}

// Start fetches the first token synchronously (outside any timed path),
// retrying 429 answers (honouring Retry-After up to RetryAfterMax), and
// starts the background refresher, which stops with ctx or Close.
func (s *Source) Start(ctx context.Context) error {
	for attempt := 1; ; attempt++ {
		err := s.fetchOnce(ctx)
		if err == nil {
			break
		}
		var se *authtoken.StatusError
		if !errors.As(err, &se) || se.Code != http.StatusTooManyRequests || attempt >= s.attempts {
			return err
		}
		wait, werr := s.retryWait(se, attempt)
		if werr != nil {
			return fmt.Errorf("token exchange answered 429: %w", werr)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	ctx, s.stop = context.WithCancel(ctx)
	s.done = make(chan struct{})
	go s.loop(ctx)
	return nil
}

// Close stops the refresher.
func (s *Source) Close() {
	if s.stop != nil {
		s.stop()
		<-s.done
	}
}

// Header is the current request header map. It must not be modified
// (vegeta copies it into each request).
func (s *Source) Header() http.Header {
	if st := s.cur.Load(); st != nil {
		return st.header
	}
	return nil
}

// Current returns the current token.
func (s *Source) Current() Token {
	if st := s.cur.Load(); st != nil {
		return st.tok
	}
	return Token{}
}

// Fetches is the number of successful fetches so far.
func (s *Source) Fetches() int64 { return s.refresh.Load() }

// Failures is the number of failed fetch attempts so far.
func (s *Source) Failures() int64 { return s.failures.Load() }

// Unauthorized tells the source a request sent at sentAt got 401. If the
// current token was obtained before that request was sent, it is the refused
// one and a refresh is requested (asynchronously, deduplicated).
func (s *Source) Unauthorized(sentAt time.Time) {
	st := s.cur.Load()
	if st != nil && st.tok.Obtained.After(sentAt) {
		return // already replaced since
	}
	for {
		old := s.last401.Load()
		if sentAt.UnixNano() <= old || s.last401.CompareAndSwap(old, sentAt.UnixNano()) {
			break
		}
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// retryWait is the wait before retry attempt+1 after a 429: exponential
// from 100 ms to 2 s, at least the Retry-After, which must not exceed the cap.
func (s *Source) retryWait(se *authtoken.StatusError, attempt int) (time.Duration, error) {
	wait := min(time.Duration(100<<min(attempt-1, 6))*time.Millisecond, 2*time.Second)
	ra, ok, err := httpclient.RetryAfter(se.RetryAfter, s.now(), s.raMax)
	if err != nil {
		return 0, err
	}
	if ok && ra > wait {
		wait = ra
	}
	return wait, nil
}

func (s *Source) fetchOnce(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, err := s.fetch(ctx)
	if err != nil {
		s.failures.Add(1)
		return err
	}
	if tok.Obtained.IsZero() {
		tok.Obtained = s.now()
	}
	h := make(http.Header, len(s.extra)+1)
	for k, v := range s.extra {
		h[k] = v
	}
	h["Authorization"] = []string{"Bearer " + tok.Value}
	s.cur.Store(&state{tok: tok, header: h})
	s.refresh.Add(1)
	return nil
}

func (s *Source) loop(ctx context.Context) {
	defer close(s.done)
	backoff := 100 * time.Millisecond
	for {
		tok := s.Current()
		wait := time.Duration(float64(tok.ExpiresIn)*s.fraction) - s.now().Sub(tok.Obtained)
		if wait < 0 {
			wait = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.kick:
			t.Stop()
			// A kick left over from 401s of requests sent before the
			// current token was obtained is stale: that token is new.
			if s.last401.Load() < s.Current().Obtained.UnixNano() {
				continue
			}
		case <-t.C:
		}
		for {
			err := s.fetchOnce(ctx)
			if err == nil {
				backoff = 100 * time.Millisecond
				break
			}
			if ctx.Err() != nil {
				return
			}
			wait := backoff
			var se *authtoken.StatusError
			if errors.As(err, &se) && se.Code == http.StatusTooManyRequests {
				// In the background a too long Retry-After is waited up to the cap.
				ra, _, raErr := httpclient.RetryAfter(se.RetryAfter, s.now(), s.raMax)
				var tooLong *httpclient.RetryAfterError
				if errors.As(raErr, &tooLong) {
					ra = tooLong.Max
				}
				wait = max(wait, ra)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if backoff < 5*time.Second {
				backoff *= 2
			}
		}
	}
}
