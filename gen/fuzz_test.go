package gen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/gen"
	"github.com/pipegen/pipegen/gen/gentest"
	"github.com/pipegen/pipegen/spec"
)

// TestFuzzSQL generates random typed expressions and queries
// (sqlgen_test.go) and asserts, for each: validate (spec check, then gen)
// never panics, gen never rejects what the check accepts, and when it
// accepts, the generated Go compiles and one
// update of the program runs without a panic or exit 2. A flow that fails
// cleanly at run time (ANSI overflow, division by zero, a bad cast: Spark
// raises those too) is allowed. The accepted queries are compiled in a few
// programs, one materialized view each; a compile error is charged to the
// query whose generated function holds it, a panic to the flow that dies
// (the update runs again on halves of the flows, --refresh).
//
// The seed is fixed. PIPEGEN_SOAK=1 (make soak) runs 20 seeds with more
// queries each; PIPEGEN_FUZZ_SEEDS=a,b,c runs those seeds and
// PIPEGEN_FUZZ_SIZE=E,Q generates E expressions and Q queries per seed
// (Q=0 and E=0 with PIPEGEN_FUZZ_VALIDATE_ONLY=1 only validate).
func TestFuzzSQL(t *testing.T) {
	seeds, exprs, queries := []uint64{1}, 160, 60
	if os.Getenv("PIPEGEN_SOAK") != "" {
		seeds, exprs, queries = nil, 1500, 500
		for s := range uint64(20) {
			seeds = append(seeds, 100+s)
		}
	}
	if v := os.Getenv("PIPEGEN_FUZZ_SEEDS"); v != "" {
		seeds = nil
		for _, f := range strings.Split(v, ",") {
			s, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				t.Fatalf("PIPEGEN_FUZZ_SEEDS: %v", err)
			}
			seeds = append(seeds, s)
		}
	}
	if v := os.Getenv("PIPEGEN_FUZZ_SIZE"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d", &exprs, &queries); err != nil {
			t.Fatalf("PIPEGEN_FUZZ_SIZE=%s: want EXPRESSIONS,QUERIES: %v", v, err)
		}
	}
	var total fuzzStats
	for _, seed := range seeds {
		st := fuzzSeed(t, seed, exprs, queries)
		t.Logf("seed %d: %s", seed, st)
		total.add(st)
	}
	t.Logf("total: %s", total)
}

// fuzzStats counts what one run tried.
type fuzzStats struct {
	checked, checkedOK  int // expressions given to sql.CheckExpr, accepted
	tried, accepted     int // queries validated alone, accepted
	programs, runErrors int // programs built, flows that failed cleanly
	bugs                int
}

func (s *fuzzStats) add(o fuzzStats) {
	s.checked += o.checked
	s.checkedOK += o.checkedOK
	s.tried += o.tried
	s.accepted += o.accepted
	s.programs += o.programs
	s.runErrors += o.runErrors
	s.bugs += o.bugs
}

func (s fuzzStats) String() string {
	return fmt.Sprintf("%d expressions checked (%d accepted); %d queries validated, %d accepted, compiled into %d programs and run (%d flows failed cleanly at run time); %d bugs",
		s.checked, s.checkedOK, s.tried, s.accepted, s.programs, s.runErrors, s.bugs)
}

// fuzzRegressions are queries the fuzz test found whose generated Go did
// not compile; they run first, with every seed.
var fuzzRegressions = []string{
	// CAST of map() (MAP<VOID, VOID>) to a typed MAP left the loop
	// variables unused.
	"SELECT CAST(map() AS MAP<STRING, INT>) AS c FROM src",
	// array_join's NULL replacement, unused when no element is NULL.
	"SELECT array_join(array(1, 2, 3), ',', 'x') AS c FROM src",
	// IS NULL of a value whose validity is known apart from it.
	"SELECT (f * log2(f)) IS NULL AS c FROM src",
	"SELECT (sa <=> array('x', NULL)) IS NULL AS c FROM src",
	// || of ARRAYs and of BINARY values was Go's + on slices.
	"SELECT sa || array('x', NULL) AS c, X'00' || X'01' AS d, a || a AS e FROM src",
	// a CASE typed as never NULL, whose validity nobody reads.
	"SELECT zip_with(sa, sa, (a, b) -> CASE WHEN a < b THEN -1 ELSE 0 END) AS c FROM src",
	"SELECT transform(a, x -> if(x IS NULL, 0, 1)) AS c FROM src",
	// a coalesce typed as never NULL, whose validity nobody reads.
	"SELECT transform(arrays_zip(array(1, 2, 3), sa, sa, a), x -> coalesce(x, x)) AS c FROM src",
	"SELECT transform(a, x -> coalesce(x, 0)) AS c FROM src",
	// an IN typed as never NULL, whose validity nobody reads.
	"SELECT struct('x' IN ('y', 'z' || ''), 2) AS c FROM src",
}

// fuzzQuery is one generated query, a materialized view of the pipeline.
type fuzzQuery struct {
	name, sql string
}

// fuzzSpec is a pipeline of the two views and one materialized view per
// query.
func fuzzSpec(qs []fuzzQuery) string {
	var b strings.Builder
	b.WriteString("pipeline: fuzz\ncatalog: main\nschema: fuzz\ndatasets:\n")
	block := func(name, kind, text string) {
		fmt.Fprintf(&b, "  %s:\n    kind: %s\n    query: |-\n", name, kind)
		for _, l := range strings.Split(text, "\n") {
			b.WriteString("      " + l + "\n")
		}
	}
	block("src", "temporary_view", fuzzSource)
	block("oth", "temporary_view", fuzzOther)
	for _, q := range qs {
		block(q.name, "materialized_view", q.sql)
	}
	return b.String()
}

// validate checks a spec and, with generate, generates its program, as
// `pipegen validate` does. rejected holds spec's diagnostics; bug a panic
// of spec or gen, or any error of gen: spec reports every construct the
// generator cannot compile (sql.Uncompilable, spec.Undecodable, ...), so
// an *UnsupportedError for a spec it accepted, internal or not, is a limit
// the check missed or a generator bug.
func validate(src string, generate bool) (files map[string][]byte, rejected, bug string) {
	files, rejected, bug, _ = validateFlow(src, generate)
	return files, rejected, bug
}

// validateFlow is validate that also returns the flow gen failed on.
func validateFlow(src string, generate bool) (files map[string][]byte, rejected, bug, flow string) {
	defer func() {
		if r := recover(); r != nil {
			bug, flow = fmt.Sprintf("panic in validate: %v\n%s", r, debug.Stack()), ""
		}
	}()
	p, diags := spec.LoadBytes("fuzz.yaml", []byte(src))
	if p == nil || diags.HasErrors() {
		var b bytes.Buffer
		diags.Write(&b, spec.TextOutput, "")
		if b.Len() == 0 {
			return nil, "", "validate returned no pipeline and no diagnostic", ""
		}
		return nil, b.String(), "", ""
	}
	if !generate {
		return nil, "", "", ""
	}
	files, err := gen.Generate(p, gen.Options{Version: "fuzz"})
	var ue *gen.UnsupportedError
	switch {
	case errors.As(err, &ue) && ue.Internal != "":
		return nil, "", "gen panicked: " + err.Error(), ue.Flow
	case errors.As(err, &ue):
		return nil, "", "gen rejects a spec validate's check accepts: " + err.Error(), ue.Flow
	case err != nil:
		return nil, "", "gen failed: " + err.Error(), ""
	}
	return files, "", "", ""
}

// slowValidate is how long validate of one query may take: longer is a
// bug (code that grows exponentially with nesting).
const slowValidate = 2 * time.Second

// fuzzBatch is how many materialized views one program holds.
const fuzzBatch = 120

// fuzzSeed runs the queries of one seed.
func fuzzSeed(t *testing.T, seed uint64, exprs, queries int) fuzzStats {
	g := newSQLGen(seed)
	base := len(g.pool)
	for len(g.pool)-base < exprs && g.tried < 40*exprs {
		g.expr()
	}
	var qs []fuzzQuery
	for i, r := range fuzzRegressions {
		qs = append(qs, fuzzQuery{fmt.Sprintf("r%04d", i), r})
	}
	for i, e := range g.pool[base:] {
		qs = append(qs, fuzzQuery{fmt.Sprintf("e%04d", i), fmt.Sprintf("SELECT %s AS c FROM src", column(e))})
	}
	for i := range queries {
		qs = append(qs, fuzzQuery{fmt.Sprintf("q%04d", i), g.query()})
	}
	st := fuzzStats{checked: g.tried, checkedOK: g.accepted}
	var accepted []fuzzQuery
	for _, q := range qs {
		st.tried++
		start := time.Now()
		_, rejected, bug := validate(fuzzSpec([]fuzzQuery{q}), false)
		if d := time.Since(start); d > slowValidate {
			st.bugs++
			t.Errorf("seed %d, %s: validate took %s: %s", seed, q.name, d.Round(time.Millisecond), q.sql)
		}
		switch {
		case bug != "":
			st.bugs++
			t.Errorf("seed %d, %s: %s\n%s", seed, q.name, q.sql, bug)
		case rejected == "":
			accepted = append(accepted, q)
		}
	}
	st.accepted = len(accepted)
	if os.Getenv("PIPEGEN_FUZZ_VALIDATE_ONLY") != "" {
		return st
	}
	for len(accepted) > 0 {
		n := min(fuzzBatch, len(accepted))
		st.add(runFuzzBatch(t, seed, accepted[:n]))
		accepted = accepted[n:]
	}
	return st
}

// runFuzzBatch compiles queries into one program and runs one update.
func runFuzzBatch(t *testing.T, seed uint64, qs []fuzzQuery) (st fuzzStats) {
	for len(qs) > 0 {
		files, rejected, bug, flow := validateFlow(fuzzSpec(qs), true)
		if i := slices.IndexFunc(qs, func(q fuzzQuery) bool { return q.name == flow }); i >= 0 && len(qs) > 1 {
			// gen names the query it failed on: a bug; leave it out and
			// compile the others.
			if bug != "" {
				st.bugs++
				t.Errorf("seed %d, %s: %s\n%s", seed, qs[i].name, qs[i].sql, bug)
			}
			st.accepted--
			qs = slices.Delete(slices.Clone(qs), i, i+1)
			continue
		}
		if rejected != "" || bug != "" {
			// Only spec rejects (the queries together: each alone was
			// accepted); any failure of gen is a bug. Halve the batch
			// until it names the query.
			if len(qs) == 1 {
				if bug != "" {
					st.bugs++
					t.Errorf("seed %d, %s: %s\n%s", seed, qs[0].name, qs[0].sql, bug)
				}
				st.accepted--
				return st
			}
			h := len(qs) / 2
			st.add(runFuzzBatch(t, seed, qs[:h]))
			st.add(runFuzzBatch(t, seed, qs[h:]))
			return st
		}
		prog, err := gentest.TryBuild(t, files)
		var be *gentest.BuildError
		if errors.As(err, &be) {
			bad := compileErrorQueries(files, be.Output, qs)
			if len(bad) == 0 {
				// Not attributable: all of them.
				for _, q := range qs {
					bad[q.name] = firstLinesOf(be.Output, 8)
				}
			}
			for _, q := range qs {
				if msg, ok := bad[q.name]; ok {
					st.bugs++
					t.Errorf("seed %d, %s: validate accepts, the generated Go does not compile: %s\n%s", seed, q.name, q.sql, msg)
				}
			}
			qs = slices.DeleteFunc(slices.Clone(qs), func(q fuzzQuery) bool { return bad[q.name] != "" })
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		st.programs++
		st.add(runFuzzProgram(t, seed, prog, qs))
		return st
	}
	return st
}

var goErrorLine = regexp.MustCompile(`(?m)^\./([^/\s:]+\.go):(\d+):\d+: `)

// compileErrorQueries returns the compiler's error lines by query whose
// generated code (a declaration whose name holds the query's name, e.g.
// runE0001) holds them.
func compileErrorQueries(files map[string][]byte, output string, qs []fuzzQuery) map[string]string {
	bad := map[string]string{}
	for _, l := range strings.Split(output, "\n") {
		m := goErrorLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		lines := strings.Split(string(files[m[1]]), "\n")
		line, _ := strconv.Atoi(m[2])
		for i := min(line, len(lines)) - 1; i >= 0; i-- {
			if !strings.HasPrefix(lines[i], "func ") && !strings.HasPrefix(lines[i], "type ") {
				continue
			}
			decl := strings.ToLower(lines[i])
			for _, q := range qs {
				if strings.Contains(decl, q.name) {
					bad[q.name] += l + "\n"
					break
				}
			}
			break
		}
	}
	return bad
}

func firstLinesOf(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// runFuzzProgram runs one update of prog. When it panics or exits 2, the
// flows that did not end run again in halves until the one that dies.
func runFuzzProgram(t *testing.T, seed uint64, prog string, qs []fuzzQuery) (st fuzzStats) {
	warehouse := t.TempDir()
	var isolate func(sel []fuzzQuery, refresh bool)
	isolate = func(sel []fuzzQuery, refresh bool) {
		args := []string{"run", "--warehouse", warehouse}
		if refresh {
			var names []string
			for _, q := range sel {
				names = append(names, q.name)
			}
			args = append(args, "--refresh", strings.Join(names, ","))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, prog, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		crash := ""
		switch {
		case ctx.Err() != nil:
			crash = "the update did not end within 2m"
		case strings.Contains(out.String(), "panic:") || strings.Contains(out.String(), "fatal error:"):
			crash = "the program panicked:\n" + firstLinesOf(out.String()[max(0, strings.Index(out.String(), "panic:")):], 14)
		case errors.As(err, &ee) && ee.ExitCode() == 2:
			crash = "the program exited 2:\n" + firstLinesOf(out.String(), 14)
		case err != nil && !errors.As(err, &ee):
			t.Fatalf("the program did not start: %v", err)
		}
		if crash == "" {
			if !refresh {
				st.runErrors = strings.Count(out.String(), "FAILED")
			}
			return
		}
		if len(sel) == 1 {
			st.bugs++
			t.Errorf("seed %d, %s: validate accepts, %s\n%s", seed, sel[0].name, crash, sel[0].sql)
			return
		}
		h := len(sel) / 2
		isolate(sel[:h], true)
		isolate(sel[h:], true)
	}
	isolate(qs, false)
	return st
}
