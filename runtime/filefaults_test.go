package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// What happens to the landing folder's files themselves: rewritten in
// place after ingestion (allow_overwrites), still young (min_file_age),
// gone before they are read (ignore_missing_files) or unreadable
// (ignore_corrupt_files).

// euFlows is regionFlows("eu") with edit applied to its source.
func euFlows(edit func(s *FileSource[[]any])) *Pipeline {
	p := regionFlows("eu")
	edit(p.Sources[0].(*FileSource[[]any]))
	return p
}

func TestAllowOverwrites(t *testing.T) {
	t0 := time.Now().Add(-time.Hour)
	for _, allow := range []bool{false, true} {
		dir := t.TempDir()
		p := euFlows(func(s *FileSource[[]any]) { s.AllowOverwrites = allow })
		landOrders(t, dir, "landing/eu", "e1.json", t0, 1, 2)
		mustRun(t, p, dir, RunOptions{})
		// The producer re-uploads a corrected file under the same name.
		landOrders(t, dir, "landing/eu", "e1.json", t0.Add(time.Minute), 1, 2, 3)
		out := mustRun(t, p, dir, RunOptions{})
		got := tableRows(t, tablePath(dir, "orders"), -1)
		changed := eventDetails(events(t, dir, "regions"), "changed_file")
		if !allow {
			// Each file once, by path: the rewrite is not read, but it is
			// reported (the update checks a sample of the ingested files,
			// here all of them) with the old and new size and time.
			if want := []string{"1 | 10 | eu", "2 | 20 | eu"}; !slices.Equal(got, want) {
				t.Errorf("without allow_overwrites: rows %q, want %q", got, want)
			}
			if len(changed) != 1 || !strings.Contains(fmt.Sprint(changed[0]["when"]), "after it was ingested") ||
				changed[0]["old_size"] == changed[0]["new_size"] {
				t.Errorf("without allow_overwrites: changed_file events %v, want one saying the file changed after it was ingested", changed)
			}
			if !strings.Contains(out, "1 files changed") {
				t.Errorf("progress line does not count the changed file:\n%s", out)
			}
			continue
		}
		// Ingested again, whole: the old rows stay (duplicates unless a
		// downstream query deduplicates).
		want := []string{"1 | 10 | eu", "1 | 10 | eu", "2 | 20 | eu", "2 | 20 | eu", "3 | 30 | eu"}
		if !slices.Equal(got, want) {
			t.Errorf("with allow_overwrites: rows %q, want %q", got, want)
		}
		if len(changed) != 1 || changed[0]["old_size"] == changed[0]["new_size"] || changed[0]["old_modification_time"] == changed[0]["new_modification_time"] {
			t.Errorf("changed_file events %v, want one with the old and new size and time", changed)
		}
		if !strings.Contains(out, "1 files changed") {
			t.Errorf("progress line does not count the changed file:\n%s", out)
		}
		// Once per change: an update without a change reads nothing, a
		// second change is ingested again, also across a compaction of
		// the processed-file record (which keeps sizes and times).
		for i := range 11 {
			mustRun(t, p, dir, RunOptions{})
			if i == 0 {
				if got := tableRows(t, tablePath(dir, "orders"), -1); len(got) != 5 {
					t.Errorf("an update without a change: %d rows, want 5", len(got))
				}
			}
			landOrders(t, dir, "landing/eu", "n"+string(rune('a'+i))+".json", t0.Add(time.Duration(2+i)*time.Minute), 100+i)
		}
		mustRun(t, p, dir, RunOptions{})
		if got := tableRows(t, tablePath(dir, "orders"), -1); len(got) != 16 {
			t.Errorf("after eleven more files: %d rows, want 16", len(got))
		}
		landOrders(t, dir, "landing/eu", "e1.json", t0.Add(time.Hour), 4)
		mustRun(t, p, dir, RunOptions{})
		if got := tableRows(t, tablePath(dir, "orders"), -1); len(got) != 17 || !slices.Contains(got, "4 | 40 | eu") {
			t.Errorf("after a second change: %q, want 17 rows with 4", got)
		}
	}
}

func TestMinFileAge(t *testing.T) {
	dir := t.TempDir()
	p := euFlows(func(s *FileSource[[]any]) { s.MinFileAge = int64(time.Hour) })
	landOrders(t, dir, "landing/eu", "old.json", time.Now().Add(-2*time.Hour), 1)
	landOrders(t, dir, "landing/eu", "young.json", time.Now().Add(-time.Minute), 2)
	mustRun(t, p, dir, RunOptions{})
	if got, want := tableRows(t, tablePath(dir, "orders"), -1), []string{"1 | 10 | eu"}; !slices.Equal(got, want) {
		t.Fatalf("rows %q, want %q: a file younger than min_file_age waits", got, want)
	}
	path := filepath.Join(dir, "landing/eu/young.json")
	old := time.Now().Add(-90 * time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	mustRun(t, p, dir, RunOptions{})
	if got, want := tableRows(t, tablePath(dir, "orders"), -1), []string{"1 | 10 | eu", "2 | 20 | eu"}; !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q once the file is old enough", got, want)
	}
}

// wrapRun makes the flow of p call before ahead of each run; the first
// run fails (a crash after its micro-batch's offsets were written) when
// failFirst.
func wrapRun(p *Pipeline, failFirst bool, before func()) {
	f := p.Flows[0]
	run := f.Run
	runs := 0
	f.Run = func(ctx *FlowContext) error {
		runs++
		if failFirst && runs == 1 {
			return errors.New("injected failure")
		}
		if before != nil {
			before()
		}
		return run(ctx)
	}
}

func TestIgnoreMissingFiles(t *testing.T) {
	t0 := time.Now().Add(-time.Hour)
	for _, ignore := range []bool{false, true} {
		for _, when := range []string{"after the batch was planned", "after the listing"} {
			dir := t.TempDir()
			landOrders(t, dir, "landing/eu", "e1.json", t0, 1)
			landOrders(t, dir, "landing/eu", "e2.json", t0.Add(time.Minute), 2)
			gone := filepath.Join(dir, "landing/eu/e1.json")
			build := func() *Pipeline {
				return euFlows(func(s *FileSource[[]any]) { s.IgnoreMissingFiles = ignore })
			}
			p := build()
			if when == "after the batch was planned" {
				// The batch's offsets name e1 and e2; the update fails;
				// e1 is deleted before the rerun.
				wrapRun(p, true, nil)
				if _, err := runPipeline(t, p, dir, RunOptions{}); err == nil {
					t.Fatal("the injected failure did not fail the update")
				}
				os.Remove(gone)
			} else {
				// Listed and stat-ed, then deleted before it is opened.
				wrapRun(p, false, func() { os.Remove(gone) })
			}
			out, err := runPipeline(t, p, dir, RunOptions{})
			if !ignore {
				if err == nil || !strings.Contains(err.Error(), "e1.json") || !strings.Contains(err.Error(), "restore it and rerun") ||
					!strings.Contains(err.Error(), "ignore_missing_files: true") {
					t.Errorf("%s, without ignore_missing_files: error %v, want one naming the file and both ways out", when, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, with ignore_missing_files: %v\n%s", when, err, out)
			}
			if got, want := tableRows(t, tablePath(dir, "orders"), -1), []string{"2 | 20 | eu"}; !slices.Equal(got, want) {
				t.Errorf("%s: rows %q, want %q", when, got, want)
			}
			skipped := eventDetails(events(t, dir, "regions"), "skipped_file")
			if len(skipped) != 1 || !strings.HasSuffix(skipped[0]["path"].(string), "e1.json") || !strings.Contains(skipped[0]["reason"].(string), "gone") {
				t.Errorf("%s: skipped_file events %v, want e1.json with its reason", when, skipped)
			}
			if !strings.Contains(out, "1 files skipped") {
				t.Errorf("%s: the progress line does not count the skipped file:\n%s", when, out)
			}
			// Not retried: restored, it stays skipped.
			landOrders(t, dir, "landing/eu", "e1.json", t0, 1)
			mustRun(t, build(), dir, RunOptions{})
			if got := tableRows(t, tablePath(dir, "orders"), -1); len(got) != 1 {
				t.Errorf("%s: the skipped file was read later: %q", when, got)
			}
		}
	}
}

func TestIgnoreCorruptFiles(t *testing.T) {
	t0 := time.Now().Add(-time.Hour)
	for _, ignore := range []bool{false, true} {
		dir := t.TempDir()
		landOrders(t, dir, "landing/eu", "e1.json", t0, 1)
		bad := filepath.Join(dir, "landing/eu/e2.json")
		if err := os.WriteFile(bad, []byte("{\"order_id\": 2, \"amount\": 20}\n\x00\x01 not json\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(bad, t0.Add(time.Minute), t0.Add(time.Minute))
		landOrders(t, dir, "landing/eu", "e3.json", t0.Add(2*time.Minute), 3)
		p := euFlows(func(s *FileSource[[]any]) { s.IgnoreCorruptFiles = ignore })
		out, err := runPipeline(t, p, dir, RunOptions{})
		if !ignore {
			if err == nil || !strings.Contains(err.Error(), "e2.json cannot be read") || !strings.Contains(err.Error(), "fix or replace it and rerun") ||
				!strings.Contains(err.Error(), "ignore_corrupt_files: true") {
				t.Errorf("without ignore_corrupt_files: error %v, want one naming the file and both ways out", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("with ignore_corrupt_files: %v\n%s", err, out)
		}
		// What the decoder emitted before the damage would be kept, as in
		// Spark; this test's decoder emits a file's rows at its end.
		if got, want := tableRows(t, tablePath(dir, "orders"), -1), []string{"1 | 10 | eu", "3 | 30 | eu"}; !slices.Equal(got, want) {
			t.Errorf("rows %q, want %q", got, want)
		}
		skipped := eventDetails(events(t, dir, "regions"), "skipped_file")
		if len(skipped) != 1 || !strings.HasSuffix(skipped[0]["path"].(string), "e2.json") || !strings.Contains(skipped[0]["reason"].(string), "cannot be read") {
			t.Errorf("skipped_file events %v, want e2.json with its reason", skipped)
		}
		if !strings.Contains(out, "1 files skipped") {
			t.Errorf("the progress line does not count the skipped file:\n%s", out)
		}
		mustRun(t, p, dir, RunOptions{})
		if n := len(eventDetails(events(t, dir, "regions"), "skipped_file")); n != 1 {
			t.Errorf("the corrupt file was retried: %d skipped_file events", n)
		}
	}
}
