# pipegen: build, test, benchmark.
#   make build   pipegen into ./bin
#   make test    every test (needs the DuckDB checker: npm ci --prefix runtime/delta/testdata/duckdb)
#   make bench   the bronze/silver/gold benchmark against DuckDB (needs ../shared/bench)
#   make soak    long crash, update-sequence and SQL fuzz runs, by hand
#   make generated  rewrite the committed generated code of the examples and templates

GO      ?= go
BIN     := bin
BENCH   ?= ../shared/bench
BENCHDATA ?= /tmp/pipegen-bench-data

DUCKDB  := runtime/delta/testdata/duckdb/node_modules/@duckdb/node-api/package.json

.PHONY: build test vet fmt bench soak clean duckdb conformance generated

build:
	$(GO) build -o $(BIN)/pipegen ./cmd/pipegen

# DuckDB (Node) is the independent reader the Delta cross-checks compare with.
duckdb: $(DUCKDB)
$(DUCKDB): runtime/delta/testdata/duckdb/package-lock.json
	npm ci --prefix runtime/delta/testdata/duckdb --no-audit --no-fund --loglevel=error
	touch $@

# The end-to-end tests of cmd/pipegen build and run dozens of programs: on a
# loaded 2-core machine the package takes longer than go test's default
# 10-minute limit.
test: $(DUCKDB)
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...

# Spark's golden SQL files through pipegen (gen/conformance): the pass rate
# per file in the log, every query that does not pass in
# bin/conformance/_artifacts/*/conformance-report.md.
conformance:
	mkdir -p $(BIN)/conformance
	$(GO) test -run TestSparkGolden -v -timeout 30m -artifacts -outputdir $(BIN)/conformance ./gen/conformance/

# The generated Go of every example (examples/<name>/generated*/*.go.golden) and init
# template (templates/generated/<name>/) is committed, so a generator change
# shows in review; gen's TestCommittedGeneratedCode fails until this is run.
generated:
	$(GO) test ./gen -run TestCommittedGeneratedCode -count=1 -update

fmt:
	gofmt -l -w $$(git ls-files '*.go')

bench: build
	./examples/orders_bench/bench.sh "$(BENCH)" "$(BENCHDATA)"

soak:
	PIPEGEN_SOAK=1 $(GO) test -run 'Soak' -timeout 5h -v ./cmd/pipegen/
	PIPEGEN_SOAK=1 $(GO) test -run 'TestFuzzSQL' -timeout 3h -v ./gen/

clean:
	rm -rf $(BIN)
