package delta

import (
	"fmt"
	"sort"
	"strings"
)

// Writer protocol. pipegen writes tables of reader version 1 and writer
// version 2, or writer version 4 when the table enables the change data
// feed (protocol, "Change Data Feed": `delta.enableChangeDataFeed=true`
// needs writer version 4). Writer versions 3 and 4 also oblige writers to
// enforce CHECK constraints (writer 3) and generated columns (writer 4);
// pipegen implements neither, so it refuses to write a table that declares
// one, whatever its version. Writer version 2 obliges writers to respect
// `delta.appendOnly` and column invariants, checked here as well.

// ChangeDataFeedProperty is the table property that enables the change
// data feed.
const ChangeDataFeedProperty = "delta.enableChangeDataFeed"

// ChangeDataDir is the folder of change data files (`_change_data/`),
// which Spark names so and which readers of the table skip.
const ChangeDataDir = "_change_data"

// ChangeDataFeedEnabled reports whether a table configuration enables the
// change data feed.
func ChangeDataFeedEnabled(conf map[string]string) bool {
	return strings.EqualFold(conf[ChangeDataFeedProperty], "true")
}

// writerVersionFor returns the writer version a table with this
// configuration needs from pipegen: 4 with the change data feed, else 2.
func writerVersionFor(conf map[string]string) int {
	if ChangeDataFeedEnabled(conf) {
		return 4
	}
	return 2
}

// writableFeatures are the writer table features (writer version 7)
// pipegen honours when it writes: appendOnly and invariants are checked,
// the change data feed and TIMESTAMP_NTZ are written as the protocol says.
var writableFeatures = map[string]bool{"appendOnly": true, "invariants": true, "changeDataFeed": true, "timestampNtz": true}

// UnwritableFeatures returns the table features of p and m that pipegen
// cannot write, by protocol name, sorted: writer features outside
// writableFeatures (deletionVectors, columnMapping, v2Checkpoint,
// domainMetadata, rowTracking, typeWidening, ...), and, for tables
// without feature lists, column mapping (reader version 2, writer
// versions 5 and 6, or delta.columnMapping.mode) and deletion vectors
// enabled by delta.enableDeletionVectors.
func UnwritableFeatures(p Protocol, m Metadata) []string {
	set := map[string]bool{}
	for _, f := range p.WriterFeatures {
		if !writableFeatures[f] {
			set[f] = true
		}
	}
	if p.MinReaderVersion == 2 || p.MinWriterVersion == 5 || p.MinWriterVersion == 6 {
		set["columnMapping"] = true
	}
	if mode := m.Configuration[ColumnMappingProperty]; mode != "" && mode != "none" {
		set["columnMapping"] = true
	}
	if strings.EqualFold(m.Configuration["delta.enableDeletionVectors"], "true") {
		set["deletionVectors"] = true
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// CheckWritable fails, naming the table and the features, when the table
// uses table features pipegen cannot write (see UnwritableFeatures); the
// runtime calls it before an update writes anything.
func CheckWritable(table string, p Protocol, m Metadata) error {
	fs := UnwritableFeatures(p, m)
	if len(fs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: the table uses Delta table features pipegen reads but cannot write (%s); nothing was written. "+
		"Write it with the engine that enabled them, or let pipegen create the table anew (a full refresh to another table name)",
		table, strings.Join(fs, ", "))
}

// checkWritable refuses to write a table whose protocol or metadata asks
// for writer features pipegen does not implement. m is the metadata the
// commit leaves in force; removes says whether the commit removes data.
func checkWritable(table string, p Protocol, m Metadata, removes bool) error {
	if err := CheckWritable(table, p, m); err != nil {
		return fmt.Errorf("commit %w", err)
	}
	if p.MinReaderVersion > 1 || p.MinWriterVersion > 4 {
		return fmt.Errorf("commit %s: the table requires Delta writer version %d (reader %d); pipegen writes tables of reader version 1 and writer version 2, or 4 with the change data feed only",
			table, p.MinWriterVersion, p.MinReaderVersion)
	}
	var constraints []string
	for k := range m.Configuration {
		if strings.HasPrefix(k, "delta.constraints.") {
			constraints = append(constraints, k)
		}
	}
	if len(constraints) > 0 {
		sort.Strings(constraints)
		return fmt.Errorf("commit %s: the table has CHECK constraints (%s), which pipegen does not enforce; drop them (ALTER TABLE ... DROP CONSTRAINT) or write the table with another engine",
			table, strings.Join(constraints, ", "))
	}
	for _, f := range []string{"delta.generationExpression", "delta.invariants", "delta.identity."} {
		if strings.Contains(m.SchemaString, `"`+f) {
			return fmt.Errorf("commit %s: the table's schema uses %s, which pipegen does not enforce; write the table with another engine", table, strings.TrimSuffix(f, "."))
		}
	}
	if removes && strings.EqualFold(m.Configuration["delta.appendOnly"], "true") {
		return fmt.Errorf("commit %s: the table is append-only (delta.appendOnly=true) and this commit removes data; unset the property to let the pipeline update or delete rows", table)
	}
	return nil
}
