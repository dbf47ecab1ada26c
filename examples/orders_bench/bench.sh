#!/usr/bin/env bash
# The benchmark job of ../shared/bench (see its README): 1,000,000 order
# events in 100 JSON-lines files, bronze -> silver -> per-customer revenue.
#
#   examples/orders_bench/bench.sh BENCH_DIR DATA_DIR [PAIRS]
#
# 1. generates the data into DATA_DIR unless it is there (BENCH_DIR/gen);
# 2. builds the pipeline;
# 3. runs PAIRS (default 3) paired rounds: the backlog update (all 100 files,
#    fresh warehouse), then the DuckDB peer (BENCH_DIR/duckdb, installed with
#    npm ci when needed) on the same data, and prints each run's wall time,
#    CPU time and peak RSS, pipegen's rows/s and input MB/s, and the median
#    of the per-pair wall-time ratios (the figure that counts on a shared
#    machine: single timings vary 10-30%);
# 4. lands one new file of 10,000 events and times the incremental update
#    (the materialized view is refreshed with GROUP_AGGREGATE), with its
#    cost as a share of the backlog update's;
# 5. times stateful.yaml over the 100 files (a window aggregation and a
#    deduplication within the watermark, ten files per micro-batch).
set -euo pipefail

bench=${1:?usage: bench.sh BENCH_DIR DATA_DIR [PAIRS]}
data=${2:?usage: bench.sh BENCH_DIR DATA_DIR [PAIRS]}
pairs=${3:-3}
repo=$(cd "$(dirname "$0")/../.." && pwd)
bench=$(cd "$bench" && pwd)
work=$(mktemp -d /tmp/pipegen-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -f "$data/part-00099.jsonl" ]; then
	echo "generating the data into $data"
	(cd "$bench/gen" && go run . -n 1000000 -files 100 -seed 42 -out "$data")
fi
if [ ! -d "$bench/duckdb/node_modules" ]; then
	(cd "$bench/duckdb" && npm ci --no-audit --no-fund --loglevel=error)
fi
landing="$work/landing"
mkdir -p "$landing"
for f in "$data"/part-*.jsonl; do ln -s "$f" "$landing/"; done
input_bytes=$(cat "$data"/part-*.jsonl | wc -c)

"$repo/bin/pipegen" build "$repo/examples/orders_bench/pipeline.yaml" -o "$work/orders_bench" >/dev/null

# timed NAME CMD...: runs CMD, leaves "wall user sys maxrss_kb" in $work/NAME.
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" "$@" >"$work/$name.out" 2>&1 ||
		{ cat "$work/$name.out"; exit 1; }
}
field() { awk -v i="$2" '{print $i}' "$work/$1.time"; }
cpu() { awk '{print $2 + $3}' "$work/$1.time"; }

run=("$work/orders_bench" run --warehouse "$work/warehouse" --param "landing=$landing")

ratios=()
for i in $(seq "$pairs"); do
	rm -rf "$work/warehouse"
	timed pipegen "${run[@]}"
	timed duckdb node "$bench/duckdb/bench.mjs" --in "$data" --out "$work/duckdb-out"
	pw=$(field pipegen 1)
	dw=$(field duckdb 1)
	ratio=$(echo "$pw / $dw" | bc -l)
	ratios+=("$ratio")
	printf 'pair %d: pipegen %.2f s wall, %.2f s CPU, %d MiB peak RSS; DuckDB %.2f s wall, %.2f s CPU, %d MiB peak RSS; ratio %.2f\n' \
		"$i" "$pw" "$(cpu pipegen)" "$(( $(field pipegen 4) / 1024 ))" \
		"$dw" "$(cpu duckdb)" "$(( $(field duckdb 4) / 1024 ))" "$ratio"
done
sed 's/^/  /' "$work/pipegen.out"
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
backlog=$(field pipegen 1)
backlog_cpu=$(cpu pipegen)
printf 'backlog update (1,000,000 events, %.1f MB): %.2f s wall, %.0f rows/s, %.1f MB/s of input, %d MiB peak RSS\n' \
	"$(echo "$input_bytes / 1000000" | bc -l)" "$backlog" "$(echo "1000000 / $backlog" | bc -l)" \
	"$(echo "$input_bytes / 1000000 / $backlog" | bc -l)" "$(( $(field pipegen 4) / 1024 ))"
printf 'pipegen / DuckDB wall time, median of %d paired runs: %.2f\n' "$pairs" "$median"

# One new file after the backlog: 10,000 further events.
(cd "$bench/gen" && go run . -n 10000 -files 1 -seed 4242 -out "$work/new") >/dev/null
cp "$work/new/part-00000.jsonl" "$landing/part-00100.jsonl"
new_bytes=$(wc -c <"$landing/part-00100.jsonl")
timed incremental "${run[@]}"
sed 's/^/  /' "$work/incremental.out"
inc=$(field incremental 1)
inc_cpu=$(cpu incremental)
printf 'incremental update (one new file, 10,000 events): %.2f s wall = %.1f%% of the backlog update; %.2f s CPU = %.1f%%; %.0f rows/s, %.1f MB/s, %d MiB peak RSS\n' \
	"$inc" "$(echo "100 * $inc / $backlog" | bc -l)" "$inc_cpu" "$(echo "100 * $inc_cpu / $backlog_cpu" | bc -l)" \
	"$(echo "10000 / $inc" | bc -l)" "$(echo "$new_bytes / 1000000 / $inc" | bc -l)" "$(( $(field incremental 4) / 1024 ))"
"$work/orders_bench" events --warehouse "$work/warehouse" | grep planning_information | tail -1

# Stateful streaming over the backlog.
"$repo/bin/pipegen" build "$repo/examples/orders_bench/stateful.yaml" -o "$work/stateful" >/dev/null
rm -f "$landing/part-00100.jsonl"
timed stateful "$work/stateful" run --warehouse "$work/stateful-wh" --param "landing=$landing"
sed 's/^/  /' "$work/stateful.out"
printf 'stateful streaming (1,000,000 events, 10 micro-batches, two stateful flows): %.2f s wall, %.2f s CPU, %d MiB peak RSS\n' \
	"$(field stateful 1)" "$(cpu stateful)" "$(( $(field stateful 4) / 1024 ))"
