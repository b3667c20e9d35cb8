# merchant-harness: the two set-up commands are `make run` and `make test`.
GO      ?= go
BIN     := bin/mph
OUT     ?= mph-results
GINKGO  := $(GO) tool ginkgo
# Each fuzz target of the module runs this long (make fuzz finds them all).
FUZZTIME ?= 10s
# Minimisation of new inputs would otherwise eat the fuzz budget (0 disables it;
# a failing input is then reported as found).
FUZZMINIMIZETIME ?= 0
# The harness version in --version and every report: git describe when the
# checkout has history, else the build info (module version, VCS revision).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS := $(if $(VERSION),-X main.version=$(VERSION))

# staticcheck at a fixed version, run from the module cache (go run pkg@version
# leaves go.mod's dependencies as they are); staticcheck.conf says its checks.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

.PHONY: all build run test vet staticcheck unit fuzz suites-parallel selftest selftest-full bench integration browser openapi-tools clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/mph

## run: the main job against the embedded sandbox: conformance suites, then a short load run; reports in $(OUT)/
run: build
	$(BIN) conform --out $(OUT)/conform
	$(BIN) load --scenario mixed --rate 200 --duration 10s --out $(OUT)/load

## test: every test (what CI runs)
test: vet staticcheck unit fuzz suites-parallel selftest

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

staticcheck:
	$(STATICCHECK) ./...

# The load driver's integration tests measure rates and onsets in real time:
# they run alone, after the other packages, so that no other test steals
# their CPU (the engine, and the probe, topology and compare built on it).
TIMED   := github.com/merchant-harness/mph/loadtest \
	github.com/merchant-harness/mph/loadtest/probe \
	github.com/merchant-harness/mph/loadtest/topology \
	github.com/merchant-harness/mph/loadtest/compare

# go test's own 10-minute alarm is per package: cmd/mph's tests run the
# suites and load runs end to end under -race, which on a busy 2-core machine
# can take longer; CI's own time limit still bounds the whole.
UNIT_TIMEOUT ?= 30m

unit:
	$(GO) test -race -count=1 -timeout $(UNIT_TIMEOUT) $$($(GO) list ./... | grep -vxF $(addprefix -e ,$(TIMED)))
	$(GO) test -race -count=1 -timeout $(UNIT_TIMEOUT) -p 1 $(TIMED)
	# without -race too: the attack's raw system calls (loadtest/wire/rawio_sys.go) are built only then
	$(GO) test -count=1 ./loadtest/wire

## fuzz: every fuzz target of the module (each func Fuzz* of a _test.go file), $(FUZZTIME) each
fuzz:
	@set -e; for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for target in $$(grep -h '^func Fuzz' $$dir/*_test.go | sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/'); do \
	    echo "fuzz $$dir $$target ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZETIME) $$dir; \
	  done; \
	done

suites-parallel:
	$(GINKGO) -p --procs=2 --no-color ./suites

# The self-test's runs mostly wait (delayed approvals, reconciliations, webhook
# deliveries happen in real time) rather than compute: run many at a time, and
# bound each one so that a run looping in one spec cannot hold CI.
SELFTEST_PARALLEL    ?= 12
SELFTEST_RUN_TIMEOUT ?= 5m

## selftest: the clean sandbox, every fault (against the specs citing its requirements), every setting of
## every dimension alone and 20 seeds of combined settings; kill and specificity matrices and timings in
## $(OUT)/selftest.json
selftest: build
	$(BIN) selftest --parallel $(SELFTEST_PARALLEL) --run-timeout $(SELFTEST_RUN_TIMEOUT) --json $(OUT)/selftest.json

## selftest-full: the self-test with every fault against every spec (slower)
selftest-full: build
	$(BIN) selftest --full --parallel $(SELFTEST_PARALLEL) --run-timeout $(SELFTEST_RUN_TIMEOUT) --json $(OUT)/selftest-full.json

## bench: wrk, vegeta CLI, k6 and mph side by side, pacing, sandbox throughput, memory (about 8 min;
## installs wrk if missing); writes bench/results.json, bench/RESULTS.md and the bench block of docs/load.md.
## BENCH_QUICK=1: a one-round smoke run of the script, marked as such.
bench:
	bash bench/run.sh

## integration: tests against real third-party servers: mph load's Prometheus remote write and the
## generated Grafana dashboard's queries against a real Prometheus (installs the Debian package if missing)
integration:
	@command -v prometheus >/dev/null 2>&1 || apt-get install -y prometheus >/dev/null 2>&1 || \
	  (apt-get update >/dev/null 2>&1 && apt-get install -y prometheus >/dev/null 2>&1) || \
	  { echo "prometheus could not be installed (apt-get install -y prometheus)"; exit 1; }
	$(GO) test -count=1 -run 'TestPrometheusRemoteWrite' -v ./cmd/mph

## browser: headless Chromium (Debian package) for the tests that open report.html and plot.html in a browser;
## without it they skip, saying so
browser:
	@command -v chromium >/dev/null 2>&1 || apt-get install -y chromium >/dev/null 2>&1 || \
	  (apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1) || \
	  { echo "chromium could not be installed (apt-get install -y chromium)"; exit 1; }
	@chromium --version

## openapi-tools: Redocly CLI and Stoplight Prism (npm, global) for the tests that lint the OpenAPI export and
## run a conform pass through prism proxy; without Node.js they skip, saying so
REDOCLY ?= @redocly/cli@2.77.0
PRISM   ?= @stoplight/prism-cli@5.16.0
openapi-tools:
	@command -v npm >/dev/null 2>&1 || { echo "npm is not installed (apt-get install -y nodejs npm)"; exit 1; }
	npm install -g $(REDOCLY) $(PRISM)

clean:
	rm -rf bin $(OUT)
