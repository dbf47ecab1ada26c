package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pipegen/pipegen/runtime/storage"
	"github.com/pipegen/pipegen/runtime/table"
	"github.com/pipegen/pipegen/runtime/types"
)

// preflight checks, before the update writes anything, what would
// otherwise fail it half-way with some tables written: a streaming table
// whose partition columns changed (it needs a full refresh, and is not
// being fully refreshed), a table source that does not exist or does not
// have the declared columns (checkTableSources). Every problem is
// reported, one per line.
func (u *update) preflight(plan *flowPlan) error {
	runs := map[string]bool{}
	for f := range plan.run {
		runs[f.Target.DatasetName()] = true
	}
	var problems []string
	for _, d := range u.p.Datasets {
		td := d.datasetDesc()
		if !runs[td.Name] || slices.Contains(plan.reset, td.Name) {
			continue
		}
		if td.Kind == MaterializedView {
			continue // replaced as a whole, partitioning included
		}
		h := u.handles[td.Name]
		s, err := h.Meta()
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		if err := table.CheckPartitioning(h.Name, s.Metadata.PartitionColumns, td.PartitionBy); err != nil {
			problems = append(problems, err.Error())
		}
	}
	problems = append(problems, u.checkTableSources()...)
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// tableSourceSchema is what a table source declares: its name, the table
// it reads as written, and the columns the program reads.
type tableSourceSchema interface {
	Source
	tableName() string
	declaredSchema() types.Schema
}

func (s *TableSource[T]) declaredSchema() types.Schema { return s.Codec.Schema }

// checkTableSources checks every table source of the pipeline against its
// Delta log and returns one problem per source that fails: a table that
// does not exist (no `_delta_log`, a typo: reading it as empty would
// silently empty everything downstream), with the nearest table of the
// warehouse as a hint; a declared column the table lacks; a declared type
// that cannot hold the table's values (narrower, or another type).
func (u *update) checkTableSources() []string {
	var problems []string
	for _, src := range u.p.Sources {
		ts, ok := src.(tableSourceSchema)
		if !ok {
			continue
		}
		h := u.handles[ts.SourceName()]
		written, _ := u.params.Expand(ts.tableName())
		s, err := h.Meta()
		if err != nil {
			problems = append(problems, fmt.Sprintf("source %s: %v", ts.SourceName(), err))
			continue
		}
		if s == nil {
			msg := fmt.Sprintf("source %s: table %s does not exist: %s has no _delta_log", ts.SourceName(), written, h.Path)
			if near := u.nearestTable(h.Path); near != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", near)
			}
			problems = append(problems, msg)
			continue
		}
		for _, f := range ts.declaredSchema() {
			i := s.Schema.Index(f.Name)
			if i < 0 {
				problems = append(problems, fmt.Sprintf("source %s declares column %s, which table %s does not have (its columns: %s)",
					ts.SourceName(), f.Name, written, s.Schema))
				continue
			}
			if have := s.Schema[i].Type; !readsAs(have, f.Type) {
				problems = append(problems, fmt.Sprintf("source %s declares column %s as %s, but table %s holds %s: declare %s %s (or a wider type)",
					ts.SourceName(), f.Name, f.Type, written, have, types.QuoteIdent(f.Name), have))
			}
		}
	}
	return problems
}

// readsAs reports whether values of a table column of type have can be read
// as type want without loss: the same type (nullability aside) or one of
// Delta's type widenings (types.Widens), which the Parquet reader converts.
func readsAs(have, want types.Type) bool {
	return have.EqualIgnoringNullability(want) || types.Widens(have, want)
}

// nearestTable returns the name (catalog.schema.table) of the table of the
// warehouse whose path is nearest to path, or "".
func (u *update) nearestTable(path string) string {
	root := u.opts.Warehouse
	rel, err := storage.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	var names []string
	// catalog/schema/table/_delta_log/: folders at most three deep, out
	// of the pipelines' storage.
	wh := storage.At(root)
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		entries, _ := wh.List(prefix, storage.ListOptions{Shallow: true, NamesOnly: true})
		for _, e := range entries {
			switch {
			case !e.Dir() || prefix == "" && e.Key == pipelinesFolder+"/":
			case e.Name() == "_delta_log":
				if prefix != "" {
					names = append(names, strings.ReplaceAll(strings.TrimSuffix(prefix, "/"), "/", "."))
				}
			case depth < 3:
				walk(e.Key, depth+1)
			}
		}
	}
	walk("", 0)
	return types.Suggest(strings.ReplaceAll(rel, "/", "."), names)
}
