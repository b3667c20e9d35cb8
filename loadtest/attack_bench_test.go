package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/merchant-harness/mph/loadtest/pacer"
	"github.com/merchant-harness/mph/schemas"
)

// echodListBody is bench/echod's answer to GET /cards (a valid card list).
const echodListBody = `{"status":"success","data":[{"id":"crd_bench0001","cardType":"VIRTUAL","cardBrand":"VISA","maskedPan":"424242******4242","nameOnCard":"Bench","balanceAmount":1.00,"currency":"USD","status":"ACTIVE","createdStatus":"COMPLETED"}],"timestamp":"2026-01-01T00:00:00Z","path":"/v1/merchant/cards"}`

// rawEchod answers every HTTP/1.1 request on a connection with echod's
// list answer, without net/http: it allocates almost nothing per request,
// so the benchmark's allocations and CPU are the generator's.
func rawEchod(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = ln.Close() })
	answer := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(echodListBody), echodListBody))
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					for { // the request's head; GETs have no body
						line, err := br.ReadSlice('\n')
						if err != nil {
							return
						}
						if len(bytes.TrimRight(line, "\r\n")) == 0 {
							break
						}
					}
					if _, err := c.Write(answer); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/v1/merchant"
}

// BenchmarkAttackEchod is `mph load --scenario list --rate 0 --max-workers
// 64` for one second against an echod-like endpoint in the same process,
// with and without raw results: it reports the generator's req/s and its
// allocations per request (allocs/req, B/req), so a regression of the hot
// path shows. The endpoint shares the CPU, so compare runs on one machine.
func BenchmarkAttackEchod(b *testing.B) {
	if err := schemas.Validate(schemas.CardListResponse, []byte(echodListBody)); err != nil {
		b.Fatalf("echod's answer is not a valid card list: %v", err)
	}
	base := rawEchod(b)
	u := base + "/cards?limit=20"
	hdr := http.Header{"Authorization": {"Bearer bench.token.value"}}
	for _, results := range []bool{true, false} {
		name := map[bool]string{true: "results", false: "no-results"}[results]
		b.Run(name, func(b *testing.B) {
			var reqs, allocs, bytesAlloc uint64
			var elapsed time.Duration
			for range b.N {
				scn := &Scenario{Name: "list", Endpoints: []string{EPList}, urlMask: map[string]string{u: u},
					Targeter: vegeta.NewStaticTargeter(vegeta.Target{Method: http.MethodGet, URL: u, Header: hdr})}
				sched, err := pacer.Max(time.Second)
				if err != nil {
					b.Fatal(err)
				}
				spec := RunSpec{Scenario: scn, Schedule: sched, Attack: AttackOptions{MaxWorkers: 64}}
				if results {
					spec.Results = io.Discard
				}
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				out, err := Run(context.Background(), spec)
				runtime.ReadMemStats(&m1)
				if err != nil {
					b.Fatal(err)
				}
				s, _ := out.Summary(EPList)
				if s.Requests == 0 || s.SuccessRatio < 1 {
					b.Fatalf("%d requests, success %.4f, errors %v", s.Requests, s.SuccessRatio, s.Errors)
				}
				reqs += s.Requests
				elapsed += out.End.Sub(out.Start)
				allocs += m1.Mallocs - m0.Mallocs
				bytesAlloc += m1.TotalAlloc - m0.TotalAlloc
			}
			b.ReportMetric(float64(reqs)/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(allocs)/float64(reqs), "allocs/req")
			b.ReportMetric(float64(bytesAlloc)/float64(reqs), "B/req")
		})
	}
}
