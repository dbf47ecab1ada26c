package delta_test

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/pipegen/pipegen/runtime/parquetio"
	"github.com/pipegen/pipegen/runtime/types"
)

func fmtSscan(s string, v *int64) (int, error) { return fmt.Sscan(s, v) }

// copyTable copies a table directory into a temporary one.
func copyTable(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func nullable(name string, t types.Type) types.Field {
	return types.Field{Name: name, Type: t, Nullable: true}
}

// testCheckpointSchema is the V1 checkpoint schema (protocol, "Checkpoint
// Schema") restricted to what replay reads.
var testCheckpointSchema = func() types.Schema {
	str := types.StringType
	smap := types.MapOf(str, str, true)
	return types.Schema{
		nullable("txn", types.StructOf(nullable("appId", str), nullable("version", types.LongType), nullable("lastUpdated", types.LongType))),
		nullable("add", types.StructOf(nullable("path", str), nullable("partitionValues", smap), nullable("size", types.LongType),
			nullable("modificationTime", types.LongType), nullable("dataChange", types.BooleanType), nullable("stats", str), nullable("tags", smap))),
		nullable("remove", types.StructOf(nullable("path", str), nullable("deletionTimestamp", types.LongType), nullable("dataChange", types.BooleanType))),
		nullable("metaData", types.StructOf(nullable("id", str), nullable("name", str), nullable("description", str),
			nullable("format", types.StructOf(nullable("provider", str), nullable("options", smap))), nullable("schemaString", str),
			nullable("partitionColumns", types.ArrayOf(str, true)), nullable("configuration", smap), nullable("createdTime", types.LongType))),
		nullable("protocol", types.StructOf(nullable("minReaderVersion", types.IntType), nullable("minWriterVersion", types.IntType))),
	}
}()

func readCheckpointRows(t *testing.T, path string) [][]any {
	t.Helper()
	return readFileRows(t, path, testCheckpointSchema)
}

// readFileRows reads a Parquet file as want into generic values.
func readFileRows(t *testing.T, path string, want types.Schema) [][]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	r, err := parquetio.Open(path, f, info.Size(), want, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func writeCheckpointPart(t *testing.T, path string, rows [][]any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := parquetio.NewWriter(f, testCheckpointSchema, parquetio.WriterOptions{})
	enc := parquetio.NewEncoder(testCheckpointSchema)
	for _, r := range rows {
		row, err := enc.Append(nil, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write([]parquet.Row{row}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
