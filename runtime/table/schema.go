package table

import (
	"fmt"
	"strings"

	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
)

// evolve returns the schema the table must have to take rows of want, or
// an error telling the user a full refresh is needed. Columns are matched
// by name, case-insensitively as Spark does: existing columns keep their
// place; new columns are appended (nullable: old rows read them as NULL);
// columns the query no longer produces stay and must be nullable. A
// top-level column whose type widens as Delta's type widening allows
// (types.Widens: INT → BIGINT, FLOAT → DOUBLE, DECIMAL precision up, ...)
// takes the wider type, listed in widened (the table then needs the
// typeWidening feature; old files are read converted); any other type
// change needs a full refresh.
func evolve(table string, have, want types.Schema) (out types.Schema, widened []delta.Widening, changed bool, err error) {
	out = append(types.Schema(nil), have...)
	for _, f := range want {
		i := have.Index(f.Name)
		if i < 0 {
			nf := f
			nf.Nullable = true
			out = append(out, nf)
			changed = true
			continue
		}
		if !have[i].Type.EqualIgnoringNullability(f.Type) {
			if !types.Widens(have[i].Type, f.Type) {
				return nil, nil, false, fmt.Errorf("table %s: column %s changed type from %s to %s, which is not a change Delta's type widening allows; the existing rows cannot be kept: "+
					"a full refresh is required: run with --full-refresh %s", table, f.Name, have[i].Type, f.Type, table)
			}
			out[i].Type = f.Type
			widened = append(widened, delta.Widening{Column: have[i].Name, From: have[i].Type, To: f.Type})
			changed = true
		}
		if f.Nullable && !have[i].Nullable {
			out[i].Nullable = true
			changed = true
		}
	}
	for _, f := range have {
		if want.Index(f.Name) < 0 && !f.Nullable {
			return nil, nil, false, fmt.Errorf("table %s: NOT NULL column %s is no longer produced; a full refresh is required: run with --full-refresh %s",
				table, f.Name, table)
		}
	}
	return out, widened, changed, nil
}

// CheckSchema reports whether rows of d's schema and partitioning can be
// written to the existing table without a full refresh, and the widenings
// (Delta's type widening) the next update applies to its columns.
func (h *Handle) CheckSchema(d *Desc) ([]delta.Widening, error) {
	s, err := h.Meta()
	if err != nil || s == nil {
		return nil, err
	}
	if d.Kind == MaterializedView {
		return nil, nil // replaced as a whole, schema and partitioning included
	}
	if err := CheckPartitioning(h.Name, s.Metadata.PartitionColumns, d.PartitionBy); err != nil {
		return nil, err
	}
	_, widened, _, err := evolve(h.Name, s.Schema, d.Columns)
	if err == nil {
		err = checkWidenedPartitions(h.Name, widened, s.Metadata.PartitionColumns)
	}
	return widened, err
}

// checkWidenedPartitions refuses to widen a partition column: its values
// live in the log's partitionValues and the folder names, written for the
// old type, so only a full refresh changes it.
func checkWidenedPartitions(table string, widened []delta.Widening, partitionColumns []string) error {
	for _, w := range widened {
		for _, pc := range partitionColumns {
			if strings.EqualFold(pc, w.Column) {
				return fmt.Errorf("table %s: partition column %s changed type from %s to %s; pipegen widens only columns that do not partition the table: "+
					"a full refresh is required: run with --full-refresh %s", table, w.Column, w.From, w.To, table)
			}
		}
	}
	return nil
}

// PartitioningChange describes how d's partition columns differ from those
// of the existing table ("" when they do not, or the table is absent).
func (h *Handle) PartitioningChange(d *Desc) (string, error) {
	s, err := h.Meta()
	if err != nil || s == nil {
		return "", err
	}
	if samePartitioning(s.Metadata.PartitionColumns, d.PartitionBy) {
		return "", nil
	}
	return fmt.Sprintf("from %s to %s", partitionList(s.Metadata.PartitionColumns), partitionList(d.PartitionBy)), nil
}

// CheckPartitioning fails when a table partitioned by have would be
// written as partitioned by want: its files are laid out by have, so
// only a full refresh can change that (as in Spark, where appending with
// other partition columns fails).
func CheckPartitioning(table string, have, want []string) error {
	if samePartitioning(have, want) {
		return nil
	}
	return fmt.Errorf("table %s: its partition columns change from %s to %s; the existing files are laid out by the old ones: "+
		"a full refresh is required: run with --full-refresh %s", table, partitionList(have), partitionList(want), table)
}

// samePartitioning compares partition column lists, names
// case-insensitively as Spark does.
func samePartitioning(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

func partitionList(cols []string) string {
	if len(cols) == 0 {
		return "none"
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// CheckSchemaChange says how a table whose schema was have takes rows of
// schema want without a full refresh, by the rules updates apply
// (columns matched by name, case-insensitively, as Spark does): it returns
// the columns added (old rows read them as NULL) and the columns whose
// type widens (Delta's type widening, types.Widens: a metaData action,
// old files read converted), or an error naming the table and saying that
// `--full-refresh TABLE` is needed (a column changed type otherwise, a NOT
// NULL column is no longer produced, a partition column among
// partitionColumns would widen). A materialized view is replaced whole and
// never needs this.
func CheckSchemaChange(table string, have, want types.Schema, partitionColumns []string) (added []string, widened []delta.Widening, err error) {
	out, widened, _, err := evolve(table, have, want)
	if err == nil {
		err = checkWidenedPartitions(table, widened, partitionColumns)
	}
	if err != nil {
		return nil, nil, err
	}
	for _, f := range out[len(have):] {
		added = append(added, f.Name)
	}
	return added, widened, nil
}
