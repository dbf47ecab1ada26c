package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// propSpec has one materialized view per shape of incremental refresh:
// GROUP_AGGREGATE with every decomposable aggregate, with HAVING and
// expressions over aggregates, a global aggregate, an APPEND_ONLY
// projection, and one that is always recomputed (a join).
const propSpec = `pipeline: prop
catalog: main
schema: s
sources:
  raw:
    files: {path: landing, format: json}
    schema: id BIGINT, grp STRING, amount BIGINT, flag BOOLEAN
datasets:
  events:
    kind: streaming_table
    query: SELECT id, grp, amount, flag FROM STREAM(raw)
  by_grp:
    kind: materialized_view
    query: |
      SELECT grp, count(*) AS n, count(amount) AS n_amount, sum(amount) AS total, avg(amount) AS mean,
             min(amount) AS lo, max(amount) AS hi, count(DISTINCT id) AS ids, sum(DISTINCT amount) AS distinct_total,
             count_if(flag) AS flagged, bool_and(flag) AS all_flagged, bool_or(flag) AS any_flagged
      FROM events GROUP BY grp
  filtered:
    kind: materialized_view
    query: |
      SELECT grp, sum(amount) * 2 AS double_total, max(amount) - min(amount) AS spread
      FROM events WHERE amount > 0 GROUP BY grp HAVING count(*) > 1 ORDER BY grp
  overall:
    kind: materialized_view
    query: SELECT count(*) AS n, sum(amount) AS total, max(id) AS top, count(DISTINCT grp) AS grps FROM events
  projected:
    kind: materialized_view
    query: SELECT id, upper(grp) AS grp, amount * 10 AS amount10 FROM events WHERE amount IS NOT NULL
  joined:
    kind: materialized_view
    query: SELECT e.id, t.n FROM events e JOIN by_grp t ON e.grp = t.grp
`

var propViews = []string{"by_grp", "filtered", "overall", "projected", "joined"}

// TestIncrementalEqualsRecompute is the property test of incremental
// refresh: random update sequences (new files of random rows, updates
// without new data, full refreshes of the streaming table that make its
// history not append-only) are applied to two warehouses reading the same
// landing folder; one refreshes its materialized views as the runtime
// chooses, the other recomputes them completely at every update. After
// every update both must hold the same rows, and over the sequence the
// incremental techniques must actually be used.
func TestIncrementalEqualsRecompute(t *testing.T) {
	seeds := []uint64{1, 2}
	steps := 10
	if s := os.Getenv("PIPEGEN_PROP_SEEDS"); s != "" {
		n, _ := strconv.Atoi(s)
		seeds = nil
		for i := range n {
			seeds = append(seeds, uint64(100+i))
		}
	}
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", propSpec))
	used := map[string]int{}
	for _, seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 7))
		os.RemoveAll(filepath.Join(dir, "landing"))
		os.RemoveAll(filepath.Join(dir, "inc"))
		os.RemoveAll(filepath.Join(dir, "ref"))
		file := 0
		for step := range steps {
			var inc, ref []string
			switch r := rng.IntN(10); {
			case r == 0 && step > 0:
				inc = []string{"--full-refresh", "events"}
				ref = inc
			case r == 1 && step > 0:
				// no new data
			default:
				for range 1 + rng.IntN(2) {
					landFile(t, dir, fmt.Sprintf("f%04d.json", file), randomRows(rng)...)
					file++
				}
			}
			res := mustRunProgram(t, dir, bin, append([]string{"run", "--warehouse", "inc"}, inc...)...)
			refArgs := []string{"run", "--warehouse", "ref", "--full-refresh", strings.Join(propViews, ","), "--refresh", "events"}
			if len(ref) > 0 {
				refArgs[4] += ",events"
			}
			mustRunProgram(t, dir, bin, refArgs...)
			for _, tech := range []string{"GROUP_AGGREGATE", "APPEND_ONLY", "COMPLETE_RECOMPUTE", "NO_OP"} {
				used[tech] += strings.Count(res.stderr, ", "+tech+",")
			}
			for _, v := range propViews {
				got := showRows(t, dir, bin, v, "--warehouse", "inc")
				want := showRows(t, dir, bin, v, "--warehouse", "ref")
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d step %d: %s refreshed incrementally differs from a complete recompute\nincremental:\n  %s\nrecomputed:\n  %s\nupdate:\n%s",
						seed, step, v, strings.Join(got, "\n  "), strings.Join(want, "\n  "), res.stderr)
				}
			}
		}
	}
	t.Logf("techniques used: %v", used)
	if used["GROUP_AGGREGATE"] == 0 || used["APPEND_ONLY"] == 0 || used["COMPLETE_RECOMPUTE"] == 0 {
		t.Errorf("the sequences did not exercise every technique: %v", used)
	}
}

// randomRows returns 0 to 8 JSON lines of random events: few groups (and
// NULL), small amounts (and NULL, negatives), repeated ids, random flags.
func randomRows(rng *rand.Rand) []string {
	n := rng.IntN(9)
	rows := make([]string, 0, n)
	for range n {
		grp := `"` + string(rune('a'+rng.IntN(4))) + `"`
		if rng.IntN(8) == 0 {
			grp = "null"
		}
		amount := strconv.Itoa(rng.IntN(21) - 5)
		if rng.IntN(6) == 0 {
			amount = "null"
		}
		flag := []string{"true", "false", "null"}[rng.IntN(3)]
		rows = append(rows, fmt.Sprintf(`{"id":%d,"grp":%s,"amount":%s,"flag":%s}`, rng.IntN(15), grp, amount, flag))
	}
	if n == 0 {
		return []string{""}
	}
	return rows
}

// TestIncrementalLostAggregationState deletes or cuts the aggregation
// state a GROUP_AGGREGATE refresh saved (checkpoints/<view>/aggstate-N.bin)
// and the view's refresh record (refresh.json) between updates: the next
// refresh recomputes the view, which equals a complete recompute.
func TestIncrementalLostAggregationState(t *testing.T) {
	dir := t.TempDir()
	bin := buildSpec(t, writeSpec(t, dir, "pipeline.yaml", propSpec))
	rng := rand.New(rand.NewPCG(3, 7))
	cps := filepath.Join(dir, "inc", "_pipelines", "prop", "checkpoints")
	for i, fault := range []string{"cut", "delete", "refresh.json"} {
		landFile(t, dir, fmt.Sprintf("f%04d.json", 2*i), randomRows(rng)...)
		mustRunProgram(t, dir, bin, "run", "--warehouse", "inc")
		m, _ := filepath.Glob(filepath.Join(cps, "by_grp", "aggstate-*.bin"))
		if len(m) != 1 {
			t.Fatalf("aggregation state files of by_grp: %v, want one", m)
		}
		switch fault {
		case "cut":
			data, err := os.ReadFile(m[0])
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(m[0], data[:len(data)/2], 0o644)
		case "delete":
			os.Remove(m[0])
		default:
			os.Remove(filepath.Join(cps, "by_grp", "refresh.json"))
		}
		landFile(t, dir, fmt.Sprintf("f%04d.json", 2*i+1), randomRows(rng)...)
		res := mustRunProgram(t, dir, bin, "run", "--warehouse", "inc")
		if !strings.Contains(res.stderr, "flow by_grp:") || !strings.Contains(res.stderr, "COMPLETE_RECOMPUTE") {
			t.Errorf("%s: by_grp was not recomputed:\n%s", fault, res.stderr)
		}
		mustRunProgram(t, dir, bin, "run", "--warehouse", "ref", "--full-refresh", strings.Join(propViews, ","), "--refresh", "events")
		got := showRows(t, dir, bin, "by_grp", "--warehouse", "inc")
		want := showRows(t, dir, bin, "by_grp", "--warehouse", "ref")
		if !slices.Equal(got, want) {
			t.Fatalf("%s: by_grp after the fault differs from a complete recompute\n got %q\nwant %q", fault, got, want)
		}
		t.Logf("FAULT by_grp aggstate %s: refresh recomputed, %d rows equal a complete recompute", fault, len(got))
	}
}
