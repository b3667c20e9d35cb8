package proxy

import (
	"errors"
	"os"
	"testing"
	"time"
)

// TestServeWait: a session ends on a signal (interrupted), after its
// duration or on a server error, writing interim reports meanwhile.
func TestServeWait(t *testing.T) {
	sig := make(chan os.Signal, 1)
	interims := 0
	o := ServeOptions{Stop: sig, Duration: 80 * time.Millisecond, Every: 10 * time.Millisecond, Interim: func() { interims++ }}
	if in, err := wait(o, make(chan error)); in || err != nil || interims == 0 {
		t.Errorf("duration: interrupted %v, %v, %d interims", in, err, interims)
	}
	sig <- os.Interrupt
	if in, err := wait(ServeOptions{Stop: sig}, make(chan error)); !in || err != nil {
		t.Errorf("signal: interrupted %v, %v", in, err)
	}
	served := make(chan error, 1)
	served <- errors.New("boom")
	if in, err := wait(ServeOptions{Stop: sig}, served); in || err == nil || err.Error() != "proxy server: boom" {
		t.Errorf("server error: interrupted %v, %v", in, err)
	}
}
