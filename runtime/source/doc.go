// Package source is the run-time side of file sources: listing a landing
// folder and cutting it into micro-batches, and the decoding primitives that
// generated, schema-specialised decoders call to turn JSON-lines and CSV
// files into row structs. Parquet files are read by runtime/parquetio;
// every other format of the registry (format.go: Formats) has a generic
// reader here, Format.Open, whose RowReader yields canonical Parquet rows
// for the source's generated row codec (runtime.DecodeRows): text.go,
// Spark's text format, is one. Listing and batching here do not depend on
// the format.
//
// Semantics follow Spark's file sources and Databricks Auto Loader: hidden
// and temporary files are skipped, files are taken oldest first under
// max_files_per_trigger and a soft max_bytes_per_trigger, values are
// converted as Spark's JSON and CSV readers convert them, and whatever does
// not fit the schema goes to the rescued-data column instead of being lost.
//
// # Listing and batching
//
//	List(root) ([]FileInfo, error)                        // recursive, hidden/temp skipped, oldest first
//	ListNames(root) (*Listing, error)                     // the same names, without attributes
//	(*Listing).Stat(entries) ([]FileInfo, error)          // attributes of some names, oldest first
//	Hidden(name) bool                                     // the skip rule for file and directory names
//	FileURI(absPath) string                               // "file:/abs/path", as _metadata.file_path
//	SortFiles([]FileInfo)                                 // modification time, then path
//	NextBatch(pending, Limits) (batch, rest []FileInfo)   // one micro-batch
//
// FileInfo carries the _metadata fields: Path (file_path), Name
// (file_name), Size (file_size), ModificationTime (file_modification_time),
// plus LocalPath for opening the file.
//
// # Decoders
//
// One decoder reads one file. Generated code creates it, drives it record
// by record, and builds one row struct per record:
//
//	NewJSONDecoder(r io.Reader, f FileInfo, o Options) *JSONDecoder
//	NewCSVDecoder(r io.Reader, f FileInfo, columns []string, o CSVOptions) *CSVDecoder
//	(d) NextRecord() bool                  // next record; false at end of file or on error
//	(d) EndRecord() (rescued types.Null[string], malformed bool)
//	(d) Err() error                        // *DecodeError (fail mode) or read error; *NewColumnsError (add_new_columns); nil at clean EOF
//	(d) Stats() Stats                      // Rows, Rescued, Malformed
//
// JSON structure (the schema's fields are matched by exact name):
//
//	(d) NextField() bool     // next field of the innermost open object; false at its '}'
//	(d) Key() []byte         // field name, valid until NextField; switch string(d.Key())
//	(d) KeyString() string   // field name that stays valid (MAP keys)
//	(d) BeginObject() bool   // STRUCT or MAP value is an object: iterate with NextField
//	(d) BeginArray() bool    // ARRAY value is an array: iterate with NextElement
//	(d) NextElement() bool   // next element of the innermost open array; false at its ']'
//	(d) Unknown()            // field not in the schema: skip and rescue
//	(d) Skip()               // skip without rescuing (deliberately ignored fields)
//
// Typed reads, one per value; JSON reads take the value after NextField or
// NextElement, CSV reads take the schema column's index:
//
//	String, Bool, Int8, Int16, Int32, Int64, Float32, Float64, Date,
//	Timestamp, TimestampNTZ, Binary   () / (col int)  -> types.Null[T]
//	Decimal(precision, scale int) / (col, precision, scale int) -> types.Null[types.Decimal]
//
// A read returns NULL for JSON null, a missing CSV column or an empty CSV
// field, and for a value that does not fit the type (a mismatch), which is
// then rescued. NOT NULL columns are read the same way: file sources are
// read as nullable, as Spark reads them; the constraint belongs to the
// table write.
//
// # Worked example: JSON
//
// For a source with schema
//
//	id STRING, ts TIMESTAMP, items ARRAY<STRUCT<sku: STRING, qty: INT>>,
//	ship STRUCT<method: STRING, addr: STRUCT<city: STRING>>
//
// and rescued_data_column: _rescued_data, the generator emits
//
//	type Item struct {
//		Sku types.Null[string]
//		Qty types.Null[int32]
//	}
//	type Addr struct{ City types.Null[string] }
//	type Ship struct {
//		Method types.Null[string]
//		Addr   types.Null[Addr]
//	}
//	type Row struct {
//		ID           types.Null[string]
//		TS           types.Null[types.Timestamp]
//		Items        types.Null[[]types.Null[Item]]
//		Ship         types.Null[Ship]
//		RescuedData  types.Null[string]
//	}
//
//	func decodeJSON(f source.FileInfo, r io.Reader, o source.Options, emit func([]Row) error) (source.Stats, error) {
//		d := source.NewJSONDecoder(r, f, o)
//		var items source.Slab[types.Null[Item]]
//		var scratch []types.Null[Item]
//		rows := make([]Row, 0, 4096)
//		for d.NextRecord() {
//			var r Row
//			for d.NextField() {
//				switch string(d.Key()) {
//				case "id":
//					r.ID = d.String()
//				case "ts":
//					r.TS = d.Timestamp()
//				case "items":
//					if d.BeginArray() {
//						scratch = scratch[:0]
//						for d.NextElement() {
//							var e types.Null[Item]
//							if d.BeginObject() {
//								e.Valid = true
//								for d.NextField() {
//									switch string(d.Key()) {
//									case "sku":
//										e.V.Sku = d.String()
//									case "qty":
//										e.V.Qty = d.Int32()
//									default:
//										d.Unknown()
//									}
//								}
//							}
//							scratch = append(scratch, e)
//						}
//						r.Items = types.Some(items.Copy(scratch))
//					}
//				case "ship":
//					if d.BeginObject() {
//						r.Ship.Valid = true
//						for d.NextField() {
//							switch string(d.Key()) {
//							case "method":
//								r.Ship.V.Method = d.String()
//							case "addr":
//								if d.BeginObject() {
//									r.Ship.V.Addr.Valid = true
//									for d.NextField() {
//										switch string(d.Key()) {
//										case "city":
//											r.Ship.V.Addr.V.City = d.String()
//										default:
//											d.Unknown()
//										}
//									}
//								}
//							default:
//								d.Unknown()
//							}
//						}
//					}
//				default:
//					d.Unknown()
//				}
//			}
//			rescued, malformed := d.EndRecord()
//			if malformed {
//				r = Row{} // every column NULL
//			}
//			r.RescuedData = rescued // omitted when the source has no rescued-data column
//			rows = append(rows, r)
//			if len(rows) == cap(rows) {
//				if err := emit(rows); err != nil {
//					return d.Stats(), err
//				}
//				rows = make([]Row, 0, 4096)
//			}
//		}
//		if err := d.Err(); err != nil {
//			return d.Stats(), err // fail mode or read error: the batch is discarded
//		}
//		if len(rows) > 0 {
//			if err := emit(rows); err != nil {
//				return d.Stats(), err
//			}
//		}
//		return d.Stats(), nil
//	}
//
// A MAP<STRING, BIGINT> column is read as an object:
//
//	if d.BeginObject() {
//		for d.NextField() {
//			m = append(m, KV{Key: d.KeyString(), Value: d.Int64()})
//		}
//	}
//
// Example_generatedJSONDecoder runs this pattern.
//
// # Worked example: CSV
//
// CSV has no ARRAY, MAP or STRUCT columns (Spark's CSV source rejects them;
// the generator must too). For id STRING, ts TIMESTAMP, amount
// DECIMAL(12,2) (a Row with fields ID, TS, Amount, RescuedData) and the
// spec's csv options:
//
//	func decodeCSV(f source.FileInfo, r io.Reader, o source.Options, emit func([]Row) error) (source.Stats, error) {
//		opts := source.DefaultCSVOptions()
//		opts.Options = o
//		opts.Delimiter = ';' // spec's csv.delimiter, when given
//		d := source.NewCSVDecoder(r, f, []string{"id", "ts", "amount"}, opts)
//		var rows []Row
//		for d.NextRecord() {
//			r := Row{ID: d.String(0), TS: d.Timestamp(1), Amount: d.Decimal(2, 12, 2)}
//			rescued, malformed := d.EndRecord()
//			if malformed {
//				r = Row{}
//			}
//			r.RescuedData = rescued
//			rows = append(rows, r)
//		}
//		... emit and return as for JSON
//	}
//
// Example_generatedCSVDecoder runs this pattern.
//
// # Rescued data and malformed records
//
// The rescued-data value (Databricks Auto Loader) is NULL when nothing was
// rescued, otherwise a JSON object of the rescued fields in file order with
// "_file_path" (FileInfo.Path) last:
//
//	{"cost":"$100","extra":{"a":1},"_file_path":"file:/landing/orders/part-1.json"}
//
// JSON: a top-level field not in the schema (including one differing from a
// column only in case) is rescued with its raw JSON value. A value that does
// not fit its type becomes NULL and its top-level column is rescued with the
// column's whole raw value; inside an ARRAY or STRUCT only the unfitting leaf
// is NULL, the rest decodes, and the whole top-level value is rescued so
// nothing is lost. An unknown field inside a STRUCT likewise rescues its
// top-level column. NaN and Infinity tokens are rescued as strings so the
// value is valid JSON. CSV: extra file columns are rescued under their
// header name (or _cN), unfitting values under their header name, both as
// JSON strings of the field text.
//
// A malformed record — a JSON line that is not a valid JSON object (bad
// syntax, invalid UTF-8, nesting beyond 1000 levels, text after the closing
// brace), or a CSV record with the wrong number of fields, an unterminated
// quote or text after a closing quote — yields a row with every column NULL
// whose rescued-data value is the raw record text (without its final line
// terminator). Blank lines are not records.
//
// With on_malformed: fail (Options.OnMalformed = Fail) the first malformed
// record or unfitting value stops the decoder; Err returns a *DecodeError
// whose message is "FILE:LINE:COLUMN: column "NAME": what; what to do".
// LINE counts physical lines (a CSV record may span several), COLUMN counts
// characters. Unknown fields and extra CSV columns are still rescued and
// counted, never fatal, as in Spark's FAILFAST mode.
//
// # Conversions
//
// JSON (Spark's JacksonParser): STRING takes a string's text; numbers and
// booleans give their text as written, objects and arrays their JSON text
// without whitespace. BOOLEAN takes true/false only. Integers take integer
// tokens within range (no fraction, exponent or string). FLOAT/DOUBLE take
// any number (±Inf beyond range) and the NaN/Infinity tokens and strings.
// DECIMAL takes numbers and numeric strings (commas ignored), HALF_UP to the
// scale, precision overflow a mismatch. DATE and TIMESTAMP take strings (see
// below); TIMESTAMP also an integer of seconds since the epoch. BINARY takes
// base64 strings.
//
// CSV (Spark's UnivocityParser): STRING is the text; integers Java's
// parseLong syntax; FLOAT/DOUBLE Java's parseDouble plus "NaN", "Inf",
// "-Inf"; BOOLEAN true/false in any case; DECIMAL as JSON strings; BINARY
// the text's bytes. See CSVOptions for quoting, escapes and NULLs.
//
// DATE strings: yyyy, yyyy-[m]m, yyyy-[m]m-[d]d, optionally followed by ' '
// or 'T' and anything. TIMESTAMP strings: a date as above, optionally
// followed by ' ' or 'T', [h]h:[m]m[:[s]s[.fraction]] and a zone (Z,
// ±hh[:mm], ±hhmm, UTC/GMT/UT[±offset] or a region id such as
// Europe/Paris); without a zone, in Options.TimeZone (UTC when nil).
// Fractions beyond microseconds are truncated. These are Spark 3's default
// formats with their stringToDate/stringToTimestamp fallbacks, restricted to
// four-digit years.
//
// # Lifetime of strings and byte slices
//
// Strings and byte slices returned by the decoders are not copied per
// value: they point into the decoder's input buffers (a whole file when its
// size is known and below 256 MiB, else chunks of up to 8 MiB) or into an
// arena for values that had to be rewritten (escapes, compaction, base64).
// Neither is ever reused or written once a value points into it, so values
// stay valid and immutable for as long as anything references them: rows
// may be kept across records, files and batches, handed to emit in chunks
// and written later, with no copy. The cost is memory: one retained value
// keeps its whole buffer alive. Code that keeps a few values for a long time
// (state across updates, dictionaries) should keep strings.Clone copies.
// Key's bytes are the one exception: valid until the next NextField.
// Slices from a Slab follow the same rule as strings.
package source
