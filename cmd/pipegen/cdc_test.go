package main

// End-to-end tests of AUTO CDC: real programs built from specs, run over
// several updates, their tables compared as sorted rows and read by
// DuckDB. The merge logic itself is tested in-process, over every split
// and order of its input, in package runtime.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/delta/deltatest"
)

func TestCDCExampleMatchesSourceAndReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	example, err := filepath.Abs(filepath.Join("..", "..", "examples", "cdc"))
	if err != nil {
		t.Fatal(err)
	}
	prog := buildSpec(t, filepath.Join(example, "pipeline.yaml"))
	warehouse := t.TempDir()
	mustRunProgram(t, "", prog, "run", "--warehouse", warehouse, "--base-dir", example)
	// The end states of data/SOURCE.md: Debezium keeps 101–110 (111
	// deleted), Maxwell 101 and 104–110 (102, 103, 111 deleted); 106, 107
	// and 110 changed in both, and Maxwell's 101 weighs 5.17.
	got := showRows(t, "", prog, "products", "--warehouse", warehouse)[1:]
	byKey := map[string]string{}
	for _, r := range got {
		f := strings.SplitN(r, ",", 3)
		byKey[f[0]+" "+f[1]] = r
	}
	var keys []string
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var want []string
	for id := 101; id <= 110; id++ {
		want = append(want, fmt.Sprintf("debezium %d", id))
		if id == 101 || id >= 104 {
			want = append(want, fmt.Sprintf("maxwell %d", id))
		}
	}
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("products keys %q, want %q", keys, want)
	}
	for _, c := range []struct{ key, has string }{
		{"debezium 106", "18oz carpenter hammer"}, {"maxwell 106", "18oz carpenter hammer"},
		{"debezium 107", ",5.100"}, {"maxwell 107", ",5.100"},
		{"debezium 110", "new water resistent white wind breaker,0.500"}, {"maxwell 110", "new water resistent white wind breaker,0.500"},
		{"maxwell 101", ",5.170"}, {"debezium 101", ",3.140"},
	} {
		if !strings.Contains(byKey[c.key], c.has) {
			t.Errorf("product %s is %q, want it to hold %q", c.key, byKey[c.key], c.has)
		}
	}
	history := showRows(t, "", prog, "products_history", "--warehouse", warehouse)[1:]
	open := 0
	for _, r := range history {
		if strings.HasSuffix(r, ",") {
			open++
		}
	}
	if len(history) != 32 || open != len(want) {
		t.Errorf("products_history: %d rows, %d open, want 32 and %d", len(history), open, len(want))
	}
	// The README shows exactly what show prints.
	readme, err := os.ReadFile(filepath.Join(example, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"products", "products_history"} {
		out := mustRunProgram(t, "", prog, "show", table, "--warehouse", warehouse, "--limit", "100").stdout
		cmd := "./cdc show " + table + " --limit 100\n```\n\n```\n"
		i := bytes.Index(readme, []byte(cmd))
		if i < 0 {
			t.Fatalf("README.md has no block for %q", strings.TrimSpace(cmd))
		}
		block := readme[i+len(cmd):]
		block = block[:bytes.Index(block, []byte("\n```"))]
		if string(block) != strings.TrimRight(out, "\n") {
			t.Errorf("README.md shows for %s:\n%s\nthe program prints:\n%s", table, block, out)
		}
	}
	for _, table := range []string{"products", "products_history", "product_changes"} {
		deltatest.Check(t, filepath.Join(warehouse, "main", "inventory", table), -1)
	}
	// A second update without new input commits nothing.
	before, _ := delta.LatestVersion(filepath.Join(warehouse, "main", "inventory", "products"))
	mustRunProgram(t, "", prog, "run", "--warehouse", warehouse, "--base-dir", example)
	if after, _ := delta.LatestVersion(filepath.Join(warehouse, "main", "inventory", "products")); after != before {
		t.Errorf("an update without new input moved products from version %d to %d", before, after)
	}
}

// referenceFeed is table A of the reference example, and its truncate row.
var referenceFeed = []map[string]any{
	{"userId": 124, "name": "Raul", "city": "Oaxaca", "operation": "INSERT", "sequenceNum": 1},
	{"userId": 123, "name": "Isabel", "city": "Monterrey", "operation": "INSERT", "sequenceNum": 1},
	{"userId": 125, "name": "Mercedes", "city": "Tijuana", "operation": "INSERT", "sequenceNum": 2},
	{"userId": 126, "name": "Lily", "city": "Cancun", "operation": "INSERT", "sequenceNum": 2},
	{"userId": 123, "name": nil, "city": nil, "operation": "DELETE", "sequenceNum": 6},
	{"userId": 125, "name": "Mercedes", "city": "Guadalajara", "operation": "UPDATE", "sequenceNum": 6},
	{"userId": 125, "name": "Mercedes", "city": "Mexicali", "operation": "UPDATE", "sequenceNum": 5},
	{"userId": 123, "name": "Isabel", "city": "Chihuahua", "operation": "UPDATE", "sequenceNum": 5},
}

var referenceTruncate = map[string]any{"userId": nil, "name": nil, "city": nil, "operation": "TRUNCATE", "sequenceNum": 3}

// landJSON writes rows as a JSON-lines file at path, modified at mt.
func landJSON(t *testing.T, path string, mt time.Time, rows []map[string]any) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func TestCDCReferenceExampleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	spec, err := filepath.Abs(filepath.Join("testdata", "cdc", "reference.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	prog := buildSpec(t, spec)
	want := map[string][]string{
		"users_b": {"124,Raul,Oaxaca", "125,Mercedes,Guadalajara", "126,Lily,Cancun"},
		"users_c": {"125,Mercedes,Guadalajara"},
		"users_d": {"123,Isabel,Chihuahua,5,6", "123,Isabel,Monterrey,1,5", "124,Raul,Oaxaca,1,", "125,Mercedes,Guadalajara,6,",
			"125,Mercedes,Mexicali,5,6", "125,Mercedes,Tijuana,2,5", "126,Lily,Cancun,2,"},
		"users_e": {"123,Isabel,Chihuahua,1,6", "124,Raul,Oaxaca,1,", "125,Mercedes,Guadalajara,2,", "126,Lily,Cancun,2,"},
	}
	// The partitioned targets hold the rows of their unpartitioned twins.
	want["users_b_city"], want["users_b_id"], want["users_d_city"] = want["users_b"], want["users_b"], want["users_d"]
	rng := rand.New(rand.NewPCG(5, 11))
	for run := 0; run < 2; run++ {
		dir := t.TempDir()
		base := time.Now().Add(-time.Hour)
		feed := slices.Clone(referenceFeed)
		truncFeed := append(slices.Clone(referenceFeed), referenceTruncate)
		if run > 0 {
			rng.Shuffle(len(feed), func(i, j int) { feed[i], feed[j] = feed[j], feed[i] })
			rng.Shuffle(len(truncFeed), func(i, j int) { truncFeed[i], truncFeed[j] = truncFeed[j], truncFeed[i] })
		}
		// Three updates, each landing a part of both feeds.
		cuts := []int{0, 3, 6, len(feed)}
		for u := 0; u < 3; u++ {
			mt := base.Add(time.Duration(u) * time.Minute)
			landJSON(t, filepath.Join(dir, "landing", "users", fmt.Sprintf("%d.json", u)), mt, feed[cuts[u]:cuts[u+1]])
			end := cuts[u+1]
			if u == 2 {
				end = len(truncFeed)
			}
			landJSON(t, filepath.Join(dir, "landing", "users_truncate", fmt.Sprintf("%d.json", u)), mt, truncFeed[cuts[u]:end])
			mustRunProgram(t, "", prog, "run", "--warehouse", filepath.Join(dir, "wh"), "--base-dir", dir)
		}
		for table, rows := range want {
			if got := showRows(t, "", prog, table, "--warehouse", filepath.Join(dir, "wh"))[1:]; !slices.Equal(got, rows) {
				t.Errorf("run %d, %s:\n got %q\nwant %q", run, table, got, rows)
			}
			deltatest.Check(t, filepath.Join(dir, "wh", "main", "default", table), -1)
		}
		// A NULL key fails the micro-batch with the flow, the column and the
		// file and line, and commits nothing.
		table := filepath.Join(dir, "wh", "main", "default", "users_b")
		v, _ := delta.LatestVersion(table)
		bad := filepath.Join(dir, "landing", "users", "3.json")
		landJSON(t, bad, base.Add(time.Hour), []map[string]any{
			{"userId": 127, "name": "Ana", "city": "Lima", "operation": "INSERT", "sequenceNum": 7},
			{"userId": nil, "name": "Eva", "city": "Quito", "operation": "INSERT", "sequenceNum": 8},
		})
		res := runProgram(t, "", prog, "run", "--warehouse", filepath.Join(dir, "wh"), "--base-dir", dir)
		if res.code == 0 {
			t.Fatalf("the update with a NULL key succeeded")
		}
		if stderr := res.stderr; !strings.Contains(stderr, `flow scd1: key column "userId" is NULL in `+bad+":2 (record 2)") {
			t.Errorf("stderr does not name the flow, column, file and line:\n%s", stderr)
		}
		if v2, _ := delta.LatestVersion(table); v2 != v {
			t.Errorf("the failed batch committed: version %d -> %d", v, v2)
		}
	}
	// A crash at any step of a CDC micro-batch, then a rerun, gives the
	// tables of an uninterrupted run.
	for _, fault := range []string{"after-offsets", "after-data-files", "after-commit", "after-commit@3"} {
		dir := t.TempDir()
		base := time.Now().Add(-time.Hour)
		landJSON(t, filepath.Join(dir, "landing", "users", "0.json"), base, referenceFeed[:4])
		landJSON(t, filepath.Join(dir, "landing", "users", "1.json"), base.Add(time.Minute), referenceFeed[4:])
		landJSON(t, filepath.Join(dir, "landing", "users_truncate", "0.json"), base, append(slices.Clone(referenceFeed), referenceTruncate))
		cmd := exec.Command(prog, "run", "--warehouse", filepath.Join(dir, "wh"), "--base-dir", dir)
		cmd.Env = append(os.Environ(), "PIPEGEN_FAULT="+fault)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("%s: the update was not interrupted:\n%s", fault, out)
		}
		mustRunProgram(t, "", prog, "run", "--warehouse", filepath.Join(dir, "wh"), "--base-dir", dir)
		for table, rows := range want {
			if got := showRows(t, "", prog, table, "--warehouse", filepath.Join(dir, "wh"))[1:]; !slices.Equal(got, rows) {
				t.Errorf("crash %s, %s:\n got %q\nwant %q", fault, table, got, rows)
			}
		}
	}
}

// TestCDCDownstreamEndToEnd reads an AUTO CDC target with a streaming
// table (its change data feed) and a materialized view, over an update that
// inserts and one that updates and deletes.
func TestCDCDownstreamEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	spec, err := filepath.Abs(filepath.Join("testdata", "cdc", "downstream.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	prog := buildSpec(t, spec)
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	run := func() {
		mustRunProgram(t, "", prog, "run", "--warehouse", filepath.Join(dir, "wh"), "--base-dir", dir)
	}
	landJSON(t, filepath.Join(dir, "landing", "users", "1.json"), base, referenceFeed[:4])
	run()
	landJSON(t, filepath.Join(dir, "landing", "users", "2.json"), base.Add(time.Minute), []map[string]any{
		{"userId": 123, "operation": "DELETE", "sequenceNum": 6},
		{"userId": 125, "name": "Mercedes", "city": "Oaxaca", "operation": "UPDATE", "sequenceNum": 6},
	})
	run()
	wh := filepath.Join(dir, "wh")
	if got, want := showRows(t, "", prog, "users_per_city", "--warehouse", wh)[1:], []string{"Cancun,1", "Oaxaca,2"}; !slices.Equal(got, want) {
		t.Errorf("users_per_city after an update and a delete: %q, want %q", got, want)
	}
	got := showRows(t, "", prog, "user_changes", "--warehouse", wh)[1:]
	want := []string{"123,Monterrey,delete,2", "123,Monterrey,insert,1", "124,Oaxaca,insert,1", "125,Oaxaca,update_postimage,2", "125,Tijuana,insert,1", "126,Cancun,insert,1"}
	if !slices.Equal(got, want) {
		t.Errorf("user_changes:\n got %q\nwant %q", got, want)
	}
	if got := showRows(t, "", prog, "deletions", "--warehouse", wh)[1:]; len(got) != 1 || !strings.HasPrefix(got[0], "123,") {
		t.Errorf("deletions: %q", got)
	}
	for _, table := range []string{"users", "user_changes", "users_per_city", "deletions"} {
		deltatest.Check(t, filepath.Join(wh, "main", "default", table), -1)
	}
}
