package main

import (
	"errors"
	"os"

	"github.com/urfave/cli/v2"

	prt "github.com/pipegen/pipegen/runtime"
	"github.com/pipegen/pipegen/runtime/delta"
	"github.com/pipegen/pipegen/runtime/types"
	"github.com/pipegen/pipegen/spec"
)

// locations is where a command that type-checks a spec finds what the
// spec's program wrote: the tables of table sources without a declared
// schema (under warehouse) and the columns a schema_evolution source
// gained (the schema log, under the pipeline's storage). They mean what the
// program's --warehouse and --storage mean; the zero value is the
// program's defaults (runtime.DefaultWarehouse, runtime.StorageDir).
type locations struct {
	warehouse string
	storage   string
}

// locationFlags are the --warehouse and --storage flags of the commands
// that type-check a spec (validate, build, explain, graph, diff), with the
// program's names, defaults and environment variable.
func locationFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "warehouse", Value: prt.DefaultWarehouse, EnvVars: []string{prt.WarehouseEnv},
			Usage: "look up the tables of table sources without a declared schema under `DIR` (their schema comes from the Delta log), as the program's --warehouse"},
		&cli.StringFlag{Name: "storage",
			Usage: "read the schema log of schema_evolution sources under `DIR`, as the program's --storage (default <warehouse>/_pipelines/<pipeline>)"},
	}
}

// locationsOf reads locationFlags from a command's context.
func locationsOf(c *cli.Context) locations {
	return locations{warehouse: c.String("warehouse"), storage: c.String("storage")}
}

// runLocations reads the locations from the program flags that `pipegen
// run` passes on (--warehouse, --storage), with the program's
// environment variable when --warehouse is absent.
func runLocations(flags []string) locations {
	l := locations{warehouse: flagValue(flags, "warehouse"), storage: flagValue(flags, "storage")}
	if l.warehouse == "" {
		l.warehouse = os.Getenv(prt.WarehouseEnv)
	}
	return l
}

// specOptions are the spec.Options that look table sources and schema
// logs up at these locations.
func (l locations) specOptions() spec.Options {
	return spec.Options{TableSchema: l.tableSchema, SchemaLog: l.schemaLog}
}

// schemaLog reads the columns a schema_evolution: add_new_columns source
// gained from the pipeline's schema log (spec.Options.SchemaLog).
func (l locations) schemaLog(pipeline, source string) (string, bool, error) {
	log, found, err := prt.ReadSchemaLog(prt.StorageDir(l.warehouse, l.storage, pipeline), source)
	return log.DDL(), found, err
}

// tableSchema reads the schema of a table source's table from its Delta
// log (spec.Options.TableSchema): at its delta.`path`, else where the
// program finds it under the warehouse (runtime.TableDir).
func (l locations) tableSchema(ref spec.TableRef) (types.Schema, bool, error) {
	path := ref.Path
	if path == "" {
		path = prt.TableDir(l.warehouse, ref.Catalog, ref.Schema, ref.Table)
	}
	s, err := delta.LoadMetadata(path)
	if errors.Is(err, delta.ErrNoTable) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return s.Schema, true, nil
}
