package runtime

import (
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/cdc/cdctest"
	"github.com/pipegen/pipegen/runtime/delta"
)

// TestCDCFlowChangedRules applies the reference feed's inserts with one
// flow definition, then its updates with another: a change of how stored
// state is read fails the update before the target gets a commit (same
// version, same rows) naming the table and --full-refresh, and the full
// refresh then succeeds; a safe change applies the updates.
func TestCDCFlowChangedRules(t *testing.T) {
	for _, tc := range []struct {
		name      string
		scd2      bool
		edit      func(*Flow, *AutoCDC[[]any, []any])
		wantError string // "" the change is safe
	}{
		{"track history except city", true, func(_ *Flow, a *AutoCDC[[]any, []any]) { a.TrackHistory = []string{"userId", "name"} },
			"the history tracking changes (track_history_columns / track_history_except_columns: a change of city no longer opens a new version)"},
		{"ignore nulls scd2", true, func(_ *Flow, a *AutoCDC[[]any, []any]) { a.IgnoreNullUpdates = true },
			"ignore_null_updates of an SCD type 2 flow changes (was false, now true)"},
		{"sequence_by column", false, func(_ *Flow, a *AutoCDC[[]any, []any]) { a.SequenceBy = []string{"version"} },
			"sequence_by changes (was sequenceNum, now version)"},
		{"renamed flow", false, func(f *Flow, _ *AutoCDC[[]any, []any]) { f.Name = "users_apply" },
			"its rows were applied by AUTO CDC flow users_flow, not by flow users_apply: a new or renamed flow into an existing AUTO CDC target has no state for the rows already applied"},
		{"ignore nulls scd1", false, func(_ *Flow, a *AutoCDC[[]any, []any]) { a.IgnoreNullUpdates = true }, ""},
		{"same rules", true, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			before, _ := refPipeline(tc.scd2, false, nil)
			landFiles(t, dir, 0, [][]cdctest.Change{cdctest.Feed[:4]})
			mustRun(t, before, dir, RunOptions{})
			table := tablePath(dir, "users")
			version, err := delta.LatestVersion(table)
			if err != nil {
				t.Fatal(err)
			}
			rows := tableRows(t, table, -1)
			after, _ := refPipelineWith(tc.scd2, false, nil, tc.edit)
			landFiles(t, dir, 1, [][]cdctest.Change{cdctest.Feed[4:]})
			out, err := runPipeline(t, after, dir, RunOptions{})
			if tc.wantError == "" {
				if err != nil {
					t.Fatalf("a safe change failed: %v\n%s", err, out)
				}
				if got := tableRows(t, table, -1); slices.Equal(got, rows) {
					t.Errorf("the updates were not applied: %q", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "table users: ") || !strings.Contains(err.Error(), tc.wantError) ||
				!strings.HasSuffix(err.Error(), "--full-refresh users") && !strings.Contains(err.Error(), "--full-refresh users (or keep") {
				t.Fatalf("error %v, want one with %q and --full-refresh users", err, tc.wantError)
			}
			if v, _ := delta.LatestVersion(table); v != version {
				t.Errorf("the failed update committed: version %d, was %d", v, version)
			}
			if got := tableRows(t, table, -1); !slices.Equal(got, rows) {
				t.Errorf("the failed update changed the rows: %q, was %q", got, rows)
			}
			mustRun(t, after, dir, RunOptions{FullRefresh: []string{"users"}})
			if got := tableRows(t, table, -1); slices.Equal(got, rows) {
				t.Errorf("the full refresh did not apply the updates: %q", got)
			}
		})
	}
}
