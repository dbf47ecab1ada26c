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

// checkWritable refuses to write a table whose protocol or metadata asks
// for writer features pipegen does not implement. m is the metadata the
// commit leaves in force; removes says whether the commit removes data.
func checkWritable(table string, p Protocol, m Metadata, removes bool) error {
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
