package delta

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// Writer protocol. pipegen writes tables of reader version 1 and writer
// version 2, or writer version 4 when the table enables the change data
// feed (protocol, "Change Data Feed": `delta.enableChangeDataFeed=true`
// needs writer version 4), or reader 3 and writer 7 with table features
// (requiredProtocol). Writer versions 3 and 4 also oblige writers to
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

// Table features pipegen writes (protocol, "Table Features"). A table
// whose schema has a TIMESTAMP_NTZ column needs reader version 3 and
// writer version 7 with the timestampNtz feature in readerFeatures and
// writerFeatures, and so does one with type widening (typeWidening: the
// table property delta.enableTypeWidening, or delta.typeChanges in its
// schema); at writer version 7 every other writer feature the table uses
// is listed as well (changeDataFeed, appendOnly), and none it does not
// use, as Spark does. Without them, the legacy versions: writer 4 with the
// change data feed, else 2.
const (
	FeatureTimestampNTZ   = "timestampNtz"
	FeatureChangeDataFeed = "changeDataFeed"
	FeatureAppendOnly     = "appendOnly"
)

// writableWriterFeatures are the writer features of a version 7 table
// pipegen can write: those it implements, and those whose use it checks
// and refuses (checkWritable) when a table uses them.
var writableWriterFeatures = map[string]bool{
	FeatureTimestampNTZ: true, FeatureChangeDataFeed: true, FeatureAppendOnly: true, FeatureTypeWidening: true,
	"invariants": true, "checkConstraints": true, "generatedColumns": true, "identityColumns": true,
}

// writableReaderFeatures are the reader features of a version 3 table
// pipegen can write.
var writableReaderFeatures = map[string]bool{FeatureTimestampNTZ: true, FeatureTypeWidening: true}

// requiredProtocol returns the protocol a table with metadata m needs:
// see the constants above.
func requiredProtocol(m Metadata) (Protocol, error) {
	s, err := ParseSchema(m.SchemaString)
	if err != nil {
		return Protocol{}, err
	}
	cdf := ChangeDataFeedEnabled(m.Configuration)
	ntz := schemaUses(s, types.TimestampNTZKind)
	widening := TypeWideningEnabled(m.Configuration) || strings.Contains(m.SchemaString, `"`+TypeChangesKey+`"`)
	if !ntz && !widening {
		if cdf {
			return Protocol{MinReaderVersion: 1, MinWriterVersion: 4}, nil
		}
		return Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, nil
	}
	p := Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{}, WriterFeatures: []string{}}
	for _, f := range []struct {
		name string
		on   bool
	}{{FeatureTimestampNTZ, ntz}, {FeatureTypeWidening, widening}} {
		if f.on {
			p.ReaderFeatures = append(p.ReaderFeatures, f.name)
			p.WriterFeatures = append(p.WriterFeatures, f.name)
		}
	}
	if strings.EqualFold(m.Configuration["delta.appendOnly"], "true") {
		p.WriterFeatures = append(p.WriterFeatures, FeatureAppendOnly)
	}
	if cdf {
		p.WriterFeatures = append(p.WriterFeatures, FeatureChangeDataFeed)
	}
	sort.Strings(p.ReaderFeatures)
	sort.Strings(p.WriterFeatures)
	return p, nil
}

// upgradeProtocol returns the protocol of a table at protocol have that
// must also satisfy need, and whether it differs from have (then the
// commit carries it). Versions only grow; features are merged. A legacy
// table that moves to writer version 7 lists the features it uses, which
// need holds (requiredProtocol of the metadata in force).
func upgradeProtocol(have, need Protocol) (Protocol, bool) {
	if have.MinWriterVersion < 7 && need.MinWriterVersion < 7 {
		out := have
		out.MinWriterVersion = max(have.MinWriterVersion, need.MinWriterVersion)
		out.MinReaderVersion = max(have.MinReaderVersion, need.MinReaderVersion)
		return out, out.MinWriterVersion != have.MinWriterVersion || out.MinReaderVersion != have.MinReaderVersion
	}
	out := Protocol{MinReaderVersion: max(have.MinReaderVersion, need.MinReaderVersion), MinWriterVersion: 7}
	out.WriterFeatures = union(have.WriterFeatures, need.WriterFeatures)
	if out.MinReaderVersion >= 3 {
		out.MinReaderVersion = 3
		out.ReaderFeatures = union(have.ReaderFeatures, need.ReaderFeatures)
	}
	same := out.MinReaderVersion == have.MinReaderVersion && out.MinWriterVersion == have.MinWriterVersion &&
		slices.Equal(out.ReaderFeatures, sorted(have.ReaderFeatures)) && slices.Equal(out.WriterFeatures, sorted(have.WriterFeatures))
	return out, !same
}

func union(a, b []string) []string {
	out := append(append([]string{}, a...), b...)
	sort.Strings(out)
	return slices.Compact(out)
}

func sorted(a []string) []string {
	out := append([]string{}, a...)
	sort.Strings(out)
	return out
}

// schemaUses reports whether a column or nested field of s has a type of
// kind k.
func schemaUses(s types.Schema, k types.Kind) bool {
	var uses func(t types.Type) bool
	uses = func(t types.Type) bool {
		switch {
		case t.Kind == k:
			return true
		case t.Kind == types.StructKind:
			for _, f := range t.Fields {
				if uses(f.Type) {
					return true
				}
			}
		case t.Kind == types.ArrayKind:
			return uses(*t.Elem)
		case t.Kind == types.MapKind:
			return uses(*t.Key) || uses(*t.Value)
		}
		return false
	}
	for _, f := range s {
		if uses(f.Type) {
			return true
		}
	}
	return false
}

// UnwritableFeatures returns the table features of p and m that pipegen
// cannot write, by protocol name, sorted: writer features outside
// writableWriterFeatures, reader features outside writableReaderFeatures
// (deletionVectors, columnMapping, v2Checkpoint,
// domainMetadata, rowTracking, ...), and, for tables
// without feature lists, column mapping (reader version 2, writer
// versions 5 and 6, or delta.columnMapping.mode) and deletion vectors
// enabled by delta.enableDeletionVectors.
func UnwritableFeatures(p Protocol, m Metadata) []string {
	set := map[string]bool{}
	for _, f := range p.WriterFeatures {
		if !writableWriterFeatures[f] {
			set[f] = true
		}
	}
	for _, f := range p.ReaderFeatures {
		if !writableReaderFeatures[f] {
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
	if p.MinReaderVersion > 3 || p.MinWriterVersion > 7 {
		return fmt.Errorf("commit %s: the table requires Delta writer version %d (reader %d); pipegen writes tables of reader version 1 and writer version 2 or 4, or reader 3 and writer 7 with the features %s",
			table, p.MinWriterVersion, p.MinReaderVersion, strings.Join(sortedKeys(writableWriterFeatures), ", "))
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

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
