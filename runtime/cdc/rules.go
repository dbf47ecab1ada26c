package cdc

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Rules are the settings of an AUTO CDC flow, beyond its keys, sequence
// type and SCD type (Spec.signature), on which the rows and state
// already stored in its target depend. Every data file of the target
// records the rules it was written with (tag pipegen.cdc.rules); a flow
// whose rules conflict with them (CheckRules) fails before it writes,
// since a micro-batch rewrites only the files holding changed keys: the
// others would keep the old rules, and the rewritten ones would be
// re-derived under the new rules without change data feed rows for what
// changed. Column names compare case-insensitively, as Spark's do.
//
// What is left out is safe to change without a full refresh, because it
// only decides how new change rows are read, never how stored state is
// folded into rows: apply_as_deletes and apply_as_truncates classify each
// change when it is read (stored changes keep their kind), and
// ignore_null_updates of an SCD type 1 flow is applied when a change is
// merged (the stored winning change already holds the filled values).
// Added columns are safe too: stored changes read NULL for them, as the
// existing rows of any streaming table do.
type Rules struct {
	// SequenceBy names the sequence_by columns: stored sequences, and the
	// __START_AT and __END_AT of SCD type 2 versions, are their values.
	SequenceBy []string `json:"sequence_by"`
	// Columns are the target's data columns (columns / except_columns).
	Columns []string `json:"columns"`
	// Untracked (SCD type 2) are the columns whose change updates the
	// current version in place (track_history_columns /
	// track_history_except_columns): versions are cut by the others.
	Untracked []string `json:"untracked,omitempty"`
	// IgnoreNulls is ignore_null_updates of an SCD type 2 flow: it decides
	// the values of every version when a key's history is folded again.
	IgnoreNulls bool `json:"ignore_nulls,omitempty"`
}

// encode returns the rules as the tag value (JSON).
func (r Rules) encode() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// rules returns the Rules of the flow s describes.
func (s *Spec) rules() Rules {
	r := Rules{SequenceBy: s.sequenceBy, IgnoreNulls: s.scd2 && s.ignoreNulls}
	for i, f := range s.data {
		r.Columns = append(r.Columns, f.Name)
		if s.scd2 && !s.tracked[i] {
			r.Untracked = append(r.Untracked, f.Name)
		}
	}
	return r
}

// CheckRules returns why a target written by an AUTO CDC flow under the
// rules was cannot be continued under now without a full refresh, one
// reason per conflicting setting; none when it can (see Rules for what
// conflicts and why). Both must be of the same SCD type.
func CheckRules(was, now Rules) []string {
	var out []string
	if !slices.EqualFunc(was.SequenceBy, now.SequenceBy, strings.EqualFold) {
		out = append(out, fmt.Sprintf("sequence_by changes (was %s, now %s): the stored sequences, and the __START_AT and __END_AT of SCD type 2 versions, are values of the old column(s)",
			strings.Join(was.SequenceBy, ", "), strings.Join(now.SequenceBy, ", ")))
	}
	has := func(names []string, c string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, c) })
	}
	var dropped, tracked, untracked []string
	for _, c := range was.Columns {
		switch {
		case !has(now.Columns, c):
			dropped = append(dropped, c)
		case has(was.Untracked, c) && !has(now.Untracked, c):
			tracked = append(tracked, c)
		case !has(was.Untracked, c) && has(now.Untracked, c):
			untracked = append(untracked, c)
		}
	}
	if len(dropped) > 0 {
		out = append(out, fmt.Sprintf("column(s) %s are no longer written (columns / except_columns): the files a change rewrites would lose their values while the others keep them",
			strings.Join(dropped, ", ")))
	}
	if len(tracked) > 0 || len(untracked) > 0 {
		var what []string
		if len(tracked) > 0 {
			what = append(what, fmt.Sprintf("a change of %s now opens a new version", strings.Join(tracked, ", ")))
		}
		if len(untracked) > 0 {
			what = append(what, fmt.Sprintf("a change of %s no longer opens a new version", strings.Join(untracked, ", ")))
		}
		out = append(out, fmt.Sprintf("the history tracking changes (track_history_columns / track_history_except_columns: %s): the versions already written were cut by the old rule, and re-deriving them would rewrite history without change feed rows",
			strings.Join(what, "; ")))
	}
	if was.IgnoreNulls != now.IgnoreNulls {
		out = append(out, fmt.Sprintf("ignore_null_updates of an SCD type 2 flow changes (was %t, now %t): the versions already written filled NULLs by the old rule", was.IgnoreNulls, now.IgnoreNulls))
	}
	return out
}

// checkLeafRules returns the error of a leaf written under rules (its tag,
// "" for files written before pipegen recorded them) that conflict with
// the flow's, naming the table and the full refresh that resolves it.
func (st *Store) checkLeafRules(tag string) error {
	now := st.Spec.rules()
	if tag == "" || tag == now.encode() {
		return nil
	}
	var was Rules
	if err := json.Unmarshal([]byte(tag), &was); err != nil {
		return fmt.Errorf("table %s: the AUTO CDC rules recorded in its files (tag %s) are unreadable: %v; run a full refresh: --full-refresh %s", st.Table, tagRules, err, st.Table)
	}
	reasons := CheckRules(was, now)
	if len(reasons) == 0 {
		return nil
	}
	return fmt.Errorf("table %s: AUTO CDC flow %s changes how its stored rows and state are read: %s; nothing was written: run a full refresh: --full-refresh %s",
		st.Table, st.Spec.flow, strings.Join(reasons, "; "), st.Table)
}
