#!/usr/bin/env bash
# `make bench`: driver efficiency, pacing and sandbox throughput, side by side
# in ONE run on this machine, and the whole of bench/RESULTS.md, bench/results.json
# and the bench block of docs/load.md generated from the drivers' own outputs
# (bench/report). Nothing in those files is written by hand.
#
# - Closed model against bench/echod (a bare Go JSON handler, so the driver is
#   the bottleneck): wrk (physical reference), the vegeta CLI built from the
#   pinned module, k6 built from the Go module proxy (closed: VUs looping),
#   `mph load --rate 0` with raw results written and with --no-results;
#   ROUNDS interleaved rounds, medians, the ratios mph/wrk and mph/vegeta.
# - Open model at fixed rates: mph's open-model, service latency and send lag,
#   with bench/stallmon watching the machine in the same seconds (a separate
#   process waking every 1 ms: its late wake-ups are the machine's stalls);
#   the vegeta CLI at the same rates; k6 constant-arrival-rate at K6_OPEN_RATES.
# - The sandbox's throughput on its three hot paths; peak RSS of a longer run.
#
# Knobs (environment): BENCH_ROUNDS (3), BENCH_DURATION (10s), BENCH_WORKERS (64),
# BENCH_OPEN_RATES ("200 2000"), K6_OPEN_RATES ("2000"), SBX_DURATION (5s),
# RSS_RATE (2000), RSS_DURATION (60s), K6_VERSION (v1.8.1).
# BENCH_QUICK=1: 1 round of 2s, short sandbox and RSS runs (a smoke test of
# the script; its output says so). BENCH_BUILD_ONLY=1 builds the drivers and stops.
# BENCH_KEEP_RAW=DIR keeps the drivers' raw outputs there (bench/report reads them:
# `go run ./bench/report -raw DIR` renders the files again).
# About 8 minutes with the defaults, on top of building k6 the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg) # before the builds: is anything else running?

QUICK=${BENCH_QUICK:-}
if [ "$QUICK" = 1 ]; then q_rounds=1 q_dur=2s q_sbx=2s q_rss=5s; else q_rounds=3 q_dur=10s q_sbx=5s q_rss=60s; fi
ROUNDS=${BENCH_ROUNDS:-$q_rounds}
DUR=${BENCH_DURATION:-$q_dur}
W=${BENCH_WORKERS:-64}
OPEN_RATES=${BENCH_OPEN_RATES:-200 2000}
K6_OPEN_RATES=${K6_OPEN_RATES:-2000}
SBX_DURATION=${SBX_DURATION:-$q_sbx}
RSS_RATE=${RSS_RATE:-2000}
RSS_DURATION=${RSS_DURATION:-$q_rss}
K6_VERSION=${K6_VERSION:-v1.8.1}

WORK=$(mktemp -d)
RAW=$WORK/raw
mkdir -p "$WORK/bin" "$RAW/closed" "$RAW/open" "$RAW/sandbox"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
export PATH="$WORK/bin:$PATH" # the commands below, as recorded, name the drivers without a path

echo "== building mph, echod, stallmon, sandboxd; the vegeta CLI (the version go.mod pins) and k6 $K6_VERSION from the Go module proxy"
go build -o "$WORK/bin/mph" ./cmd/mph
go build -o "$WORK/bin/echod" ./bench/echod
go build -o "$WORK/bin/stallmon" ./bench/stallmon
go build -o "$WORK/bin/sandboxd" ./loadtest/internal/sandboxd
# The CLIs outside this module (go install pkg@version ignores go.mod, whose
# graph holds vegeta's library, not its CLI's dependencies), into the temp bin.
VEGETA_VERSION=$(go list -m -f '{{.Version}}' github.com/tsenart/vegeta/v12)
for pkg in "github.com/tsenart/vegeta/v12@$VEGETA_VERSION" "go.k6.io/k6@$K6_VERSION"; do
  (cd "$WORK" && GOBIN="$WORK/bin" GOFLAGS=-buildvcs=false go install "$pkg")
done
if [ "${BENCH_BUILD_ONLY:-}" = 1 ]; then k6 version | head -1; echo "== build only: done"; exit 0; fi
if ! command -v wrk >/dev/null 2>&1; then
  echo "== installing wrk"
  (apt-get install -y wrk >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y wrk >/dev/null 2>&1)) ||
    echo "wrk unavailable: its row and the mph/wrk ratio will be missing"
fi
if [ ! -x /usr/bin/time ]; then
  echo "== installing time (the peak RSS comes from /usr/bin/time -f %M)"
  apt-get install -y time >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y time >/dev/null 2>&1)
fi

meta() { printf '%s=%s\n' "$1" "$2" >> "$RAW/meta.env"; }
meta date "$(date -u +%Y-%m-%dT%H:%MZ)"
meta quick "$QUICK"
KNOBS=""
for v in BENCH_QUICK BENCH_ROUNDS BENCH_DURATION BENCH_WORKERS BENCH_OPEN_RATES K6_OPEN_RATES SBX_DURATION RSS_RATE RSS_DURATION K6_VERSION; do
  if [ -n "${!v:-}" ]; then KNOBS+="$v=$(printf '%q' "${!v}") "; fi
done
meta invocation "${KNOBS}make bench"
meta cores "$(nproc)"
meta cpu "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- || uname -p)"
meta arch "$(uname -m)"
meta go "$(go version | cut -d' ' -f3)"
meta kernel "$(uname -sr)"
meta load_before "$LOAD_BEFORE"
meta rounds "$ROUNDS"
meta duration "$DUR"
# The closed model runs each driver twice per round, for half of DUR each
# (below); DUR in whole seconds, at least 2.
if [[ $DUR =~ ^([0-9]+)s$ ]] && [ "${BASH_REMATCH[1]}" -ge 2 ]; then
  HALF="$((BASH_REMATCH[1] / 2))s"
  meta closed_half "$HALF"
else
  HALF=$DUR
fi
meta workers "$W"
meta open_rates "$OPEN_RATES"
meta sandbox_duration "$SBX_DURATION"
meta rss_rate "$RSS_RATE"
meta rss_duration "$RSS_DURATION"
meta version_wrk "$( (wrk -v 2>&1 || true) | head -1 | cut -d' ' -f1-2)"
meta version_vegeta "vegeta $VEGETA_VERSION"
meta version_k6 "$(k6 version | head -1)"

# Each driver's command is a template, recorded in meta.env (knobs expanded,
# $URL, $BASE, $HDR, $UA, $AUTH, $OUT, $RATE, $SBX and $P left as names) and run
# by eval, so RESULTS.md shows exactly what ran.
show() {
  local s=$1 v
  for v in SBX_DURATION RSS_DURATION RSS_RATE HALF DUR W; do s=${s//"\$$v"/${!v}}; done
  printf '%s' "$s"
}
T_WRK='wrk -t2 -c$W -d$HALF --latency -H "$UA" -H "$HDR" "$URL" > "$OUT"'
T_VEG='echo "GET $URL" | vegeta attack -rate=0 -max-workers=$W -duration=$HALF -header "$HDR" > "$OUT.bin" && vegeta report -type=json "$OUT.bin" > "$OUT"'
T_K6='k6 run --quiet --no-color -e VUS=$W -e DUR=$HALF -e URL="$URL" -e AUTH="$AUTH" -e OUT="$OUT" bench/k6/closed.js > /dev/null'
T_MPH='mph load --base-url "$BASE" --scenario list --rate 0 --max-workers $W --duration $HALF --quiet --no-plot --out "$OUT" > /dev/null'
T_MPHNR='mph load --base-url "$BASE" --scenario list --rate 0 --max-workers $W --duration $HALF --quiet --no-plot --no-results --out "$OUT" > /dev/null'
T_OPEN_MPH='mph load --base-url "$BASE" --scenario list --rate $RATE --duration $DUR --quiet --no-plot --out "$OUT" > /dev/null'
T_OPEN_VEG='echo "GET $URL" | vegeta attack -rate=$RATE -duration=$DUR -header "$HDR" > "$OUT.bin" && vegeta report -type=json "$OUT.bin" > "$OUT"'
T_OPEN_K6='k6 run --quiet --no-color -e RATE=$RATE -e DUR=$DUR -e URL="$URL" -e AUTH="$AUTH" -e OUT="$OUT" bench/k6/open.js > /dev/null'
T_SBX='mph load --base-url "$SBX" --scenario $P --rate 0 --max-workers $W --duration $SBX_DURATION --quiet --no-results --out "$OUT" > /dev/null'
T_RSS='/usr/bin/time -f %M -o "$OUT.kb" mph load --base-url "$BASE" --scenario list --rate $RSS_RATE --duration $RSS_DURATION --quiet --out "$OUT" > /dev/null'
meta "cmd_wrk" "$(show "$T_WRK")"
meta "cmd_vegeta CLI" "$(show "$T_VEG")"
meta "cmd_k6, closed" "$(show "$T_K6")"
meta "cmd_mph load" "$(show "$T_MPH")"
meta "cmd_mph load --no-results" "$(show "$T_MPHNR")"
meta "cmd_mph open model, RATE in $OPEN_RATES" "$(show "$T_OPEN_MPH")"
meta "cmd_vegeta open model, RATE in $OPEN_RATES" "$(show "$T_OPEN_VEG")"
meta "cmd_k6 open model, RATE in $K6_OPEN_RATES" "$(show "$T_OPEN_K6")"
meta "cmd_sandbox throughput (SBX: loadtest/internal/sandboxd -no-rate-limits), P in token list secure" "$(show "$T_SBX")"
meta "cmd_memory (peak RSS in KiB from /usr/bin/time)" "$(show "$T_RSS")"

# run TEMPLATE OUT: one driver run (vegeta's raw results removed after its report).
run() { OUT=$2; eval "$1" || { echo "   failed: $(show "$1")" >&2; return 1; }; rm -f "$OUT.bin"; }
# run_mph TEMPLATE NAME: one mph run into NAME.d, of which NAME.json keeps summary.json.
run_mph() { run "$1" "$2.d" && mv "$2.d/summary.json" "$2.json" && rm -rf "$2.d"; }

echod > "$WORK/echod.url" & PIDS+=($!)
for _ in $(seq 50); do [ -s "$WORK/echod.url" ] && break; sleep 0.1; done
BASE=$(cat "$WORK/echod.url")
URL="$BASE/cards?limit=20"
AUTH="Bearer bench.token.value" # echod's fixed token, not a secret
HDR="Authorization: $AUTH"
# wrk sends no User-Agent; mph and vegeta send net/http's, k6 its own: wrk is
# given net/http's, so that the reference sends the same bytes as mph and the
# target does the same work for both (about 1% of echod's rate).
UA="User-Agent: Go-http-client/1.1"
export MPH_MERCHANT_ID=mer_bench MPH_SECRET_KEY=sk_test_bench
echo "== endpoint: GET $URL (bench/echod); load average before the builds: $LOAD_BEFORE"

# A warm-up of every closed-model driver, not counted: the first runs after
# the builds otherwise meet cold caches and CPU frequency and decide round 1.
if [ "$QUICK" != 1 ]; then
  echo "== warm-up (not counted): every closed-model driver for 2s"
  for t in T_WRK T_VEG T_K6 T_MPH T_MPHNR; do
    if [ "$t" = T_WRK ] && ! command -v wrk >/dev/null 2>&1; then continue; fi
    HALF_SAVED=$HALF; HALF=2s; OUT="$WORK/warmup-$t"; eval "${!t}" || true; HALF=$HALF_SAVED; rm -rf "$WORK/warmup-$t"*
  done
fi

# The machine may be shared: interleave the drivers round by round and take
# medians, so that a neighbour's burst does not decide a ratio.
# Each round starts one driver later in the list: the driver run last in a
# round met a machine the four before had warmed (mph --no-results, always
# last, measured 0.70-0.88 x wrk while the same binary alone equals mph with
# results), so no driver keeps one place.
# Within a round each driver runs twice, for half of DUR: in the round's
# order, then in the reverse order (A B C C B A), and the round's figure is
# the mean of the two halves: the machine's drift within the round (another
# job starting or ending) then weighs on every driver alike, where in one
# pass it fell on whichever driver ran at that moment.
closed_driver() {
  local r=$2
  case $1 in
    wrk) if command -v wrk >/dev/null 2>&1; then run "$T_WRK" "$RAW/closed/wrk-$r.txt"; fi ;;
    vegeta) run "$T_VEG" "$RAW/closed/vegeta-$r.json" ;;
    k6) run "$T_K6" "$RAW/closed/k6-$r.json" ;;
    mph) run_mph "$T_MPH" "$RAW/closed/mph-$r" ;;
    mph-no-results) run_mph "$T_MPHNR" "$RAW/closed/mph-no-results-$r" ;;
  esac
}
CLOSED_DRIVERS=(wrk vegeta k6 mph mph-no-results)
for r in $(seq "$ROUNDS"); do
  n=${#CLOSED_DRIVERS[@]}; order=()
  for i in $(seq 0 $((n - 1))); do order+=("${CLOSED_DRIVERS[$(( (i + r - 1) % n ))]}"); done
  if [ "$HALF" = "$DUR" ]; then
    echo "== closed model, round $r/$ROUNDS ($W workers, $DUR each): ${order[*]}"
    for d in "${order[@]}"; do closed_driver "$d" "$r"; done
    continue
  fi
  reverse=(); for ((i = n - 1; i >= 0; i--)); do reverse+=("${order[$i]}"); done
  echo "== closed model, round $r/$ROUNDS ($W workers, $HALF each, twice): ${order[*]}, then ${reverse[*]}"
  for d in "${order[@]}"; do closed_driver "$d" "$r-1"; done
  for d in "${reverse[@]}"; do closed_driver "$d" "$r-2"; done
done

for r in $(seq "$ROUNDS"); do
  for RATE in $OPEN_RATES; do
    echo "== open model, round $r/$ROUNDS: $RATE req/s for $DUR: mph, vegeta$([[ " $K6_OPEN_RATES " == *" $RATE "* ]] && echo ", k6")"
    stallmon > "$RAW/open/$RATE-stall-$r.json" & SM=$!; PIDS+=($SM)
    run_mph "$T_OPEN_MPH" "$RAW/open/$RATE-mph-$r"
    kill "$SM" && wait "$SM" || true
    run "$T_OPEN_VEG" "$RAW/open/$RATE-vegeta-$r.json"
    if [[ " $K6_OPEN_RATES " == *" $RATE "* ]]; then run "$T_OPEN_K6" "$RAW/open/$RATE-k6-$r.json"; fi
  done
done

echo "== sandbox throughput (sandboxd -no-rate-limits), $SBX_DURATION per path"
sandboxd -no-rate-limits > "$WORK/sbx.json" < /dev/zero & PIDS+=($!)
for _ in $(seq 50); do [ -s "$WORK/sbx.json" ] && break; sleep 0.1; done
SBX=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["baseURL"])' "$WORK/sbx.json")
export MPH_MERCHANT_ID=mer_demo_alpha MPH_SECRET_KEY=sk_test_alpha_7f3a9c2e51d84b06 # the sandbox's public demo merchant
for P in token list secure; do
  run_mph "$T_SBX" "$RAW/sandbox/$P"
done
export MPH_MERCHANT_ID=mer_bench MPH_SECRET_KEY=sk_test_bench

echo "== memory: mph load at $RSS_RATE req/s for $RSS_DURATION, raw results written"
OUT=$WORK/rss
# mph_pid PID: the mph process below PID (eval and /usr/bin/time sit between).
mph_pid() {
  local c
  for c in $(pgrep -P "$1"); do
    if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = mph ]; then echo "$c"; return 0; fi
    mph_pid "$c" && return 0
  done
  return 1
}
eval "$T_RSS" &
TPID=$!
SAMPLES=""
while kill -0 "$TPID" 2>/dev/null; do
  sleep 5
  kb=$(awk '/VmRSS/ {print $2}' "/proc/$(mph_pid "$TPID" || echo none)/status" 2>/dev/null || true)
  [ -n "$kb" ] && SAMPLES="$SAMPLES $((kb / 1024))"
done
wait "$TPID"
meta rss_peak_kb "$(tail -1 "$OUT.kb")"
meta rss_samples_mb "${SAMPLES# }"
meta rss_results_mb "$(du -m "$OUT/results.bin" | cut -f1)"
cp "$OUT/summary.json" "$RAW/rss.json"

meta load_after "$(cut -d' ' -f1-3 /proc/loadavg)"
cd "$ROOT"
if [ -n "${BENCH_KEEP_RAW:-}" ]; then mkdir -p "$BENCH_KEEP_RAW" && cp -r "$RAW"/. "$BENCH_KEEP_RAW"/; fi
go run ./bench/report -raw "$RAW" -json bench/results.json -md bench/RESULTS.md -readme docs/load.md
echo
cat bench/RESULTS.md
