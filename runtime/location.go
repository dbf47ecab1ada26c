package runtime

import "github.com/pipegen/pipegen/runtime/storage"

// DefaultWarehouse is the warehouse when none is given (no --warehouse,
// no PIPEGEN_WAREHOUSE, an empty RunOptions.Warehouse): the folder
// warehouse of the working directory. `pipegen build`, `validate` and
// `run` use the same default to find table sources and schema logs.
const DefaultWarehouse = "warehouse"

// WarehouseEnv is the environment variable that sets the warehouse when
// --warehouse is not given, for the program and for pipegen's commands.
const WarehouseEnv = "PIPEGEN_WAREHOUSE"

// pipelinesFolder is the folder of the warehouse that holds the pipelines'
// default storage; it holds no table.
const pipelinesFolder = "_pipelines"

// StorageDir returns the root of a pipeline's state (checkpoints, event
// log, lock, schema log; DESIGN.md, "storage"): storage when it is not
// empty, else <warehouse>/_pipelines/<pipeline>, with DefaultWarehouse for
// an empty warehouse. Every command of the program and of pipegen finds
// the storage through it.
func StorageDir(warehouse, storageLoc, pipeline string) string {
	if storageLoc != "" {
		return storageLoc
	}
	if warehouse == "" {
		warehouse = DefaultWarehouse
	}
	return storage.Join(warehouse, pipelinesFolder, pipeline)
}

// TableDir returns the location of a table of the warehouse:
// <warehouse>/<catalog>/<schema>/<table>, with DefaultWarehouse for an
// empty warehouse (DESIGN.md, "warehouse"). The program finds its
// datasets and table sources there, and pipegen the table sources'
// schemas.
func TableDir(warehouse, catalog, schema, table string) string {
	if warehouse == "" {
		warehouse = DefaultWarehouse
	}
	return storage.Join(warehouse, catalog, schema, table)
}
