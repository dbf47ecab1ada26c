#!/usr/bin/env bash
# The benchmark job of ../shared/bench (see its README): 1,000,000 order
# events in 100 JSON-lines files, bronze -> silver -> per-customer revenue.
#
#   examples/orders_bench/bench.sh BENCH_DIR DATA_DIR
#
# 1. generates the data into DATA_DIR unless it is there (BENCH_DIR/gen);
# 2. builds the pipeline and times the backlog update (all 100 files);
# 3. lands one new file of 10,000 events and times the incremental update
#    (the materialized view is refreshed with GROUP_AGGREGATE), and prints
#    its cost as a share of the backlog update's (the goal: under 10%);
# 4. when BENCH_DIR/duckdb has its node_modules, times the DuckDB peer on
#    the same data.
# Wall times come from bash's clock; the machine may be shared, so run it
# more than once before quoting a figure.
set -euo pipefail

bench=${1:?usage: bench.sh BENCH_DIR DATA_DIR}
data=${2:?usage: bench.sh BENCH_DIR DATA_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
bench=$(cd "$bench" && pwd)
work=$(mktemp -d /tmp/pipegen-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ ! -f "$data/part-00099.jsonl" ]; then
	echo "generating the data into $data"
	(cd "$bench/gen" && go run . -n 1000000 -files 100 -seed 42 -out "$data")
fi
landing="$work/landing"
mkdir -p "$landing"
for f in "$data"/part-*.jsonl; do ln -s "$f" "$landing/"; done

"$repo/bin/pipegen" build "$repo/examples/orders_bench/pipeline.yaml" -o "$work/orders_bench" >/dev/null

now() { date +%s.%N; }
run() { "$work/orders_bench" run --warehouse "$work/warehouse" --param "landing=$landing" 2>&1; }
# cpu runs the update and prints its CPU time (user + system, seconds),
# the steadier figure on a shared machine.
exec 4>&2
cpu() {
	local TIMEFORMAT='%U %S'
	{ time run >&4 2>&4; } 2>"$work/cpu"
	awk '{print $1 + $2}' "$work/cpu"
}

t0=$(now)
backlog_cpu=$(cpu)
t1=$(now)
backlog=$(echo "$t1 - $t0" | bc)

# One new file after the backlog: 10,000 further events.
(cd "$bench/gen" && go run . -n 10000 -files 1 -seed 4242 -out "$work/new") >/dev/null
cp "$work/new/part-00000.jsonl" "$landing/part-00100.jsonl"
t2=$(now)
incremental_cpu=$(cpu)
t3=$(now)
incremental=$(echo "$t3 - $t2" | bc)

printf 'backlog update (1,000,000 events): %.2f s wall, %.2f s CPU\n' "$backlog" "$backlog_cpu"
printf 'incremental update (one new file, 10,000 events): %.2f s wall = %.1f%% of the backlog update; %.2f s CPU = %.1f%%\n' \
	"$incremental" "$(echo "100 * $incremental / $backlog" | bc -l)" \
	"$incremental_cpu" "$(echo "100 * $incremental_cpu / $backlog_cpu" | bc -l)"
"$work/orders_bench" events --warehouse "$work/warehouse" | grep planning_information | tail -1

if [ -d "$bench/duckdb/node_modules" ]; then
	t4=$(now)
	(cd "$bench/duckdb" && node bench.mjs --in "$data" --out "$work/duckdb") >/dev/null
	t5=$(now)
	printf 'DuckDB peer, same job: %.2f s\n' "$(echo "$t5 - $t4" | bc)"
fi
