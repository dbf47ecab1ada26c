package sql

import (
	"strings"

	"github.com/pipegen/pipegen/runtime/types"
)

// testCatalog is a Catalog over fixed relations and parameters.
type testCatalog struct {
	rels   map[string]*Relation
	params map[string]types.Type
}

func (c *testCatalog) Relation(parts []string) *Relation {
	return c.rels[strings.ToLower(parts[len(parts)-1])]
}

func (c *testCatalog) Param(name string) (types.Type, bool) {
	t, ok := c.params[name]
	return t, ok
}

func col(name string, t types.Type, nullable bool) Column {
	return Column{Name: name, Type: t, Nullable: nullable}
}

// mustSchema parses a DDL column list into columns, for tests.
func mustSchema(ddl string) []Column {
	s, errs := ParseSchema(ddl)
	if errs != nil {
		panic(errString(errs))
	}
	cols := make([]Column, len(s))
	for i, f := range s {
		cols[i] = Column{Name: f.Name, Type: f.Type, Nullable: f.Nullable}
	}
	return cols
}

var metadataColumn = Column{Name: "_metadata", Type: types.StructOf(
	types.Field{Name: "file_path", Type: types.StringType},
	types.Field{Name: "file_size", Type: types.LongType},
), Hidden: true}

// newTestCatalog returns the relations of DESIGN.md's example pipeline and
// a few more for coercion tests.
func newTestCatalog() *testCatalog {
	c := &testCatalog{rels: map[string]*Relation{}, params: map[string]types.Type{
		"env":      types.StringType,
		"lateness": types.IntervalType,
		"limit":    types.IntType,
	}}
	add := func(name string, kind RelationKind, cols []Column) {
		c.rels[name] = &Relation{Name: name, Kind: kind, Columns: cols}
	}
	add("raw_orders", SourceRelation, append(mustSchema(
		"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, items ARRAY<STRUCT<sku: STRING, qty: INT>>"),
		metadataColumn))
	add("orders_silver", StreamingTableRelation, mustSchema(
		"order_id STRING NOT NULL, customer_id STRING, amount DECIMAL(12,2), event_ts TIMESTAMP, order_date DATE"))
	add("customers", MaterializedViewRelation, mustSchema(
		"customer_id STRING NOT NULL, name STRING, city STRING, seq BIGINT NOT NULL"))
	add("nums", SourceRelation, mustSchema(
		"b TINYINT NOT NULL, s SMALLINT NOT NULL, i INT NOT NULL, l BIGINT NOT NULL, f FLOAT NOT NULL, d DOUBLE NOT NULL, "+
			"d52 DECIMAL(5,2) NOT NULL, d102 DECIMAL(10,2), d380 DECIMAL(38,0), d3818 DECIMAL(38,18), "+
			"str STRING, bool BOOLEAN, dt DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, bin BINARY, iv INTERVAL DAY TO SECOND, "+
			"arr ARRAY<INT>, m MAP<STRING, BIGINT>, st STRUCT<x: INT NOT NULL, y: STRING>"))
	add("t1", SourceRelation, mustSchema("id INT NOT NULL, a STRING, x BIGINT"))
	add("t2", SourceRelation, mustSchema("id BIGINT NOT NULL, b STRING, x INT"))
	return c
}
