package loadtest

import (
	"bytes"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/metrics"
	"github.com/merchant-harness/mph/loadtest/pacer"
)

func TestClassify(t *testing.T) {
	cases := map[string]string{
		"http://h/v1/merchant/auth/token":                 EPToken,
		"http://h/v1/merchant/cards?limit=20":             EPList,
		"http://h/v1/merchant/cards":                      EPList,
		"http://h/v1/merchant/cards/crd_1/secure":         EPSecure,
		"http://h/v1/merchant/cards/crd_3faa…5457/secure": EPSecure,
		"http://h/v1/merchant/cards/crd_1":                "other",
		"http://h/v1/merchant/cards/customers":            "other",
	}
	for u, want := range cases {
		if got := Classify(u); got != want {
			t.Errorf("Classify(%q) = %q, want %q", u, got, want)
		}
	}
}

func TestParseMix(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]int
		err  bool
	}{
		{"list=6,secure=3,token=1", map[string]int{"list": 6, "secure": 3, "token": 1}, false},
		{"secure=1", map[string]int{"secure": 1}, false},
		{"list=0,secure=0", nil, true},
		{"cards=1", nil, true},
		{"list=-1", nil, true},
		{"list", nil, true},
	}
	mixed, ok := Lookup("mixed")
	if !ok {
		t.Fatal("mixed is not registered")
	}
	for _, c := range cases {
		got, err := mixed.ParseMix(c.in)
		if (err != nil) != c.err {
			t.Fatalf("ParseMix(%q) err %v", c.in, err)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Fatalf("ParseMix(%q) = %v", c.in, got)
			}
		}
	}
}

func TestWeightedTargeterIsExactPerCycle(t *testing.T) {
	mk := func(name string) func(*vegeta.Target) error {
		return func(t *vegeta.Target) error { t.URL = name; return nil }
	}
	w := map[string]int{"list": 6, "secure": 3, "token": 1}
	tr := weightedTargeter(w, map[string]func(*vegeta.Target) error{"list": mk("list"), "secure": mk("secure"), "token": mk("token")})
	counts := map[string]int{}
	prev, run := "", 0
	for i := 0; i < 1000; i++ {
		var tg vegeta.Target
		if err := tr(&tg); err != nil {
			t.Fatal(err)
		}
		counts[tg.URL]++
		if tg.URL == prev {
			run++
		} else {
			prev, run = tg.URL, 1
		}
		if run > 2 {
			t.Fatalf("smooth round robin sent %s %d times in a row", prev, run)
		}
	}
	if counts["list"] != 600 || counts["secure"] != 300 || counts["token"] != 100 {
		t.Fatalf("counts %v", counts)
	}
	if err := tr(nil); err == nil {
		t.Fatal("nil target accepted")
	}
}

func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	p := &Progress{W: &buf, Every: time.Millisecond}
	sch, _ := pacer.Constant(100, 10*time.Second)
	p.begin("list", sch, 0)
	rec := metrics.NewRecorder(time.Now(), 0)
	rec.Add("list", &vegeta.Result{Code: 200, Timestamp: time.Now(), Latency: time.Millisecond}, 0)
	rec.Add("list", &vegeta.Result{Code: 429, Timestamp: time.Now(), Latency: time.Millisecond}, 0)
	p.update(time.Now().Add(time.Second), rec, 2, 1000)
	p.finish(&Outcome{Name: "list", Interrupted: true, Start: time.Now(), End: time.Now()})
	out := buf.String()
	for _, want := range []string{"offered 100/s", "2xx 1", "429 1", "(2/1000)", "interrupted"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\r") {
		t.Error("carriage return in non-TTY output")
	}
}
