package cdc

import (
	"slices"
	"testing"
)

// TestCheckRules: added columns and a changed case are safe; a dropped
// column and each tracking change are named.
func TestCheckRules(t *testing.T) {
	was := Rules{SequenceBy: []string{"seq"}, Columns: []string{"id", "name", "city"}, Untracked: []string{"name"}}
	if got := CheckRules(was, Rules{SequenceBy: []string{"SEQ"}, Columns: []string{"ID", "name", "city", "zip"}, Untracked: []string{"NAME"}}); len(got) != 0 {
		t.Errorf("added column, other case: %q", got)
	}
	got := CheckRules(was, Rules{SequenceBy: []string{"seq"}, Columns: []string{"id", "name"}, Untracked: []string{"id"}})
	want := []string{
		"column(s) city are no longer written (columns / except_columns): the files a change rewrites would lose their values while the others keep them",
		"the history tracking changes (track_history_columns / track_history_except_columns: a change of name now opens a new version; a change of id no longer opens a new version): " +
			"the versions already written were cut by the old rule, and re-deriving them would rewrite history without change feed rows",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
