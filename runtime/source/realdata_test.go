package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pipegen/pipegen/runtime/types"
)

// The tests below decode the real files under testdata (copied from
// /work/shared/data; see each SOURCE.md) and check the facts their
// SOURCE.md states: row counts, value counts, quoting.

// openTestFile returns a decoder input for a testdata file.
func openTestFile(t *testing.T, rel string) (*os.File, FileInfo) {
	t.Helper()
	p := filepath.Join("testdata", filepath.FromSlash(rel))
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	abs, _ := filepath.Abs(p)
	return f, FileInfo{Path: FileURI(abs), Name: filepath.Base(p), LocalPath: abs}
}

// byNames returns the records as maps (see record.byName).
func byNames(recs []record, schema types.Schema) []map[string]string {
	var out []map[string]string
	for _, r := range recs {
		out = append(out, r.byName(schema))
	}
	return out
}

var retailSchema = schemaOf(
	"InvoiceNo", types.StringType, "StockCode", types.StringType, "Description", types.StringType,
	"Quantity", types.IntType, "InvoiceDate", types.TimestampType, "UnitPrice", types.DoubleType,
	"CustomerID", types.DoubleType, "Country", types.StringType)

func TestOnlineRetailCSV(t *testing.T) {
	want := map[string][3]int{ // data rows, CustomerID empty, Quantity < 0
		"2010-12-01.csv": {3108, 1140, 27},
		"2010-12-02.csv": {2109, 65, 45},
		"2010-12-03.csv": {2202, 1085, 42},
		"2010-12-05.csv": {2725, 1, 16},
		"2010-12-06.csv": {3878, 1904, 56},
	}
	quotes, commas, spaces := 0, 0, 0
	for _, name := range slices.Sorted(maps.Keys(want)) {
		f, info := openTestFile(t, "online_retail/"+name)
		d := NewCSVDecoder(f, info, columnNames(retailSchema), DefaultCSVOptions())
		rows := byNames(csvRecords(d, retailSchema), retailSchema)
		if d.Err() != nil || d.Stats() != (Stats{Rows: int64(want[name][0])}) {
			t.Fatalf("%s: stats %+v, err %v; want %d rows, nothing rescued", name, d.Stats(), d.Err(), want[name][0])
		}
		noCustomer, negative := 0, 0
		for _, r := range rows {
			if r["CustomerID"] == "NULL" {
				noCustomer++
			}
			if strings.HasPrefix(r["Quantity"], "-") {
				negative++
			}
			if r["InvoiceDate"] == "NULL" || r["UnitPrice"] == "NULL" || !strings.HasPrefix(r["InvoiceDate"], "2010-12-0") {
				t.Errorf("%s: bad row %v", name, r)
			}
			desc := r["Description"]
			if strings.Contains(desc, `\"`) {
				quotes++
			}
			if strings.Contains(desc, ",") {
				commas++
			}
			if desc != "NULL" && (strings.HasPrefix(desc, `" `) || strings.HasSuffix(desc, ` "`)) {
				spaces++
			}
		}
		if noCustomer != want[name][1] || negative != want[name][2] {
			t.Errorf("%s: %d empty CustomerID, %d negative Quantity; want %d, %d", name, noCustomer, negative, want[name][1], want[name][2])
		}
		if name == "2010-12-01.csv" {
			if r := rows[0]; r["Description"] != `"WHITE HANGING HEART T-LIGHT HOLDER"` || r["InvoiceDate"] != "2010-12-01 08:26:00" || r["UnitPrice"] != "2.55" || r["CustomerID"] != "17850" {
				t.Errorf("first row %v", r)
			}
		}
	}
	// SOURCE.md: 43 descriptions hold a doubled quote, 153 a comma, 2,749 have
	// leading or trailing spaces.
	if quotes != 43 || commas != 153 || spaces != 2749 {
		t.Errorf("descriptions with quotes %d, commas %d, edge spaces %d; want 43, 153, 2749", quotes, commas, spaces)
	}
}

// CustomerID is written "17850.0": as BIGINT it does not fit and is rescued.
func TestOnlineRetailRescuesFloatIDs(t *testing.T) {
	schema := slices.Clone(retailSchema)
	schema[6].Type = types.LongType
	f, info := openTestFile(t, "online_retail/2010-12-05.csv")
	d := NewCSVDecoder(f, info, columnNames(schema), DefaultCSVOptions())
	rows := byNames(csvRecords(d, schema), schema)
	if st := d.Stats(); st.Rows != 2725 || st.Rescued != 2725-1 || st.Malformed != 0 {
		t.Fatalf("stats %+v, want 2725 rows, 2724 rescued (all but the empty CustomerID)", st)
	}
	want := `{"CustomerID":"17243.0","_file_path":` + string(mustJSON(info.Path)) + `}`
	for _, r := range rows {
		if strings.Contains(r["_rescued"], `"17243.0"`) {
			if r["_rescued"] != want || r["CustomerID"] != "NULL" {
				t.Errorf("row %v, want CustomerID NULL and rescued %s", r, want)
			}
			return
		}
	}
	t.Error("no row of customer 15363 rescued")
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestJaffleShopCSV(t *testing.T) {
	for _, tc := range []struct {
		file   string
		schema types.Schema
		rows   int
		counts map[string]int // rendered value of column "by" -> count
		by     string
	}{
		{
			file:   "raw_orders.csv", // CRLF line endings
			schema: schemaOf("id", types.IntType, "user_id", types.IntType, "order_date", types.DateType, "status", types.StringType),
			rows:   99,
			by:     "status",
			counts: map[string]int{`"completed"`: 67, `"placed"`: 13, `"shipped"`: 13, `"returned"`: 4, `"return_pending"`: 2},
		},
		{
			file:   "raw_payments.csv",
			schema: schemaOf("id", types.IntType, "order_id", types.IntType, "payment_method", types.StringType, "amount", types.IntType),
			rows:   113,
			by:     "payment_method",
			counts: map[string]int{`"credit_card"`: 55, `"bank_transfer"`: 33, `"coupon"`: 13, `"gift_card"`: 12},
		},
		{
			file:   "raw_customers.csv",
			schema: schemaOf("id", types.IntType, "first_name", types.StringType, "last_name", types.StringType),
			rows:   100,
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, info := openTestFile(t, "jaffle_shop/"+tc.file)
			d := NewCSVDecoder(f, info, columnNames(tc.schema), DefaultCSVOptions())
			rows := byNames(csvRecords(d, tc.schema), tc.schema)
			if d.Err() != nil || d.Stats() != (Stats{Rows: int64(tc.rows)}) {
				t.Fatalf("stats %+v, err %v; want %d clean rows", d.Stats(), d.Err(), tc.rows)
			}
			counts := map[string]int{}
			for _, r := range rows {
				for k, v := range r {
					if v == "NULL" || strings.Contains(v, `\r`) {
						t.Fatalf("row %v: %s is %s", r, k, v)
					}
				}
				if tc.by != "" {
					counts[r[tc.by]]++
				}
			}
			if tc.by != "" && !maps.Equal(counts, tc.counts) {
				t.Errorf("counts by %s = %v, want %v", tc.by, counts, tc.counts)
			}
			if tc.file == "raw_orders.csv" {
				dates := []string{}
				for _, r := range rows {
					dates = append(dates, r["order_date"])
				}
				if slices.Min(dates) != "2018-01-01" || slices.Max(dates) != "2018-04-09" {
					t.Errorf("order_date range %s..%s, want 2018-01-01..2018-04-09", slices.Min(dates), slices.Max(dates))
				}
			}
		})
	}
}

// The same rows in CSV and JSON (keys in another order) decode alike.
func TestFlightSummaryCSVAndJSON(t *testing.T) {
	schema := schemaOf("DEST_COUNTRY_NAME", types.StringType, "ORIGIN_COUNTRY_NAME", types.StringType, "count", types.LongType)
	for year, want := range map[int][2]int64{
		2010: {255, 422269}, 2011: {255, 428426}, 2012: {245, 422180},
		2013: {250, 417869}, 2014: {241, 436855}, 2015: {256, 453316},
	} {
		f, info := openTestFile(t, fmt.Sprintf("flight_summary/csv/%d-summary.csv", year))
		cd := NewCSVDecoder(f, info, columnNames(schema), DefaultCSVOptions())
		csvRecs := csvRecords(cd, schema)
		csvOut := render(csvRecs, schema)
		f, info = openTestFile(t, fmt.Sprintf("flight_summary/json/%d-summary.json", year))
		jd := NewJSONDecoder(f, info, Options{})
		jsonOut := jsonRows(jd, schema)
		if cd.Stats() != (Stats{Rows: want[0]}) || jd.Stats() != (Stats{Rows: want[0]}) {
			t.Fatalf("%d: CSV %+v, JSON %+v; want %d clean rows", year, cd.Stats(), jd.Stats(), want[0])
		}
		slices.Sort(csvOut)
		slices.Sort(jsonOut)
		if !slices.Equal(csvOut, jsonOut) {
			t.Errorf("%d: CSV and JSON rows differ", year)
		}
		var sum int64
		comma := false
		for _, r := range byNames(csvRecs, schema) {
			var n int64
			fmt.Sscan(r["count"], &n)
			sum += n
			comma = comma || strings.Contains(r["DEST_COUNTRY_NAME"]+r["ORIGIN_COUNTRY_NAME"], ",")
		}
		if sum != want[1] {
			t.Errorf("%d: total count %d, want %d", year, sum, want[1])
		}
		if year == 2015 && !comma {
			t.Errorf("%d: no country name with a comma survived quoting", year)
		}
	}
}

var actorType = types.StructOf(field("id", types.LongType), field("login", types.StringType),
	field("display_login", types.StringType), field("gravatar_id", types.StringType),
	field("url", types.StringType), field("avatar_url", types.StringType))

var githubSchema = types.Schema{
	field("id", types.StringType),
	field("type", types.StringType),
	field("actor", actorType),
	field("repo", types.StructOf(field("id", types.LongType), field("name", types.StringType), field("url", types.StringType))),
	field("payload", types.StringType),
	field("public", types.BooleanType),
	field("created_at", types.TimestampType),
	field("org", types.StructOf(field("id", types.LongType), field("login", types.StringType),
		field("gravatar_id", types.StringType), field("url", types.StringType), field("avatar_url", types.StringType))),
}

const githubFile = "github_events/2021-07-21-few-hours.json"

// rawLines returns each line of a testdata file decoded by encoding/json.
func rawLines(t *testing.T, rel string) []map[string]json.RawMessage {
	t.Helper()
	f, _ := openTestFile(t, rel)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out []map[string]json.RawMessage
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestGitHubEventsJSON(t *testing.T) {
	f, info := openTestFile(t, githubFile)
	d := NewJSONDecoder(f, info, Options{})
	rows := byNames(jsonRecords(d, githubSchema), githubSchema)
	if d.Err() != nil || d.Stats() != (Stats{Rows: 800}) {
		t.Fatalf("stats %+v, err %v; want 800 clean rows", d.Stats(), d.Err())
	}
	raws := rawLines(t, githubFile)
	types := map[string]int{}
	orgs := 0
	for i, r := range rows {
		types[r["type"]]++
		if r["org"] != "NULL" {
			orgs++
		}
		if ts := r["created_at"]; ts < "2021-07-21 06:00:00" || ts > "2021-07-21 09:00:04" {
			t.Errorf("row %d: created_at %s out of range", i, ts)
		}
		// payload as STRING is its JSON text without whitespace.
		var payload string
		if err := json.Unmarshal([]byte(r["payload"]), &payload); err != nil {
			t.Fatalf("row %d: payload %s: %v", i, r["payload"], err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raws[i]["payload"]); err != nil {
			t.Fatal(err)
		}
		if payload != compact.String() {
			t.Fatalf("row %d: payload\n%s\nwant\n%s", i, payload, compact.String())
		}
	}
	if orgs != 226 {
		t.Errorf("%d rows with org, want 226", orgs)
	}
	want := map[string]int{`"PushEvent"`: 425, `"CreateEvent"`: 103, `"PullRequestEvent"`: 64, `"WatchEvent"`: 58,
		`"IssueCommentEvent"`: 36, `"PullRequestReviewEvent"`: 28, `"DeleteEvent"`: 23, `"IssuesEvent"`: 21,
		`"ForkEvent"`: 19, `"PullRequestReviewCommentEvent"`: 10, `"MemberEvent"`: 4, `"ReleaseEvent"`: 3,
		`"PublicEvent"`: 2, `"CommitCommentEvent"`: 2, `"GollumEvent"`: 2}
	if !maps.Equal(types, want) {
		t.Errorf("event types %v, want %v", types, want)
	}
}

// With a narrower actor struct, the unknown nested fields rescue the whole
// actor value, and the rescued data is a JSON object that gives it back.
func TestGitHubEventsNestedRescue(t *testing.T) {
	schema := slices.Clone(githubSchema)
	schema[2].Type = types.StructOf(field("id", types.LongType), field("login", types.StringType))
	f, info := openTestFile(t, githubFile)
	d := NewJSONDecoder(f, info, Options{})
	rows := byNames(jsonRecords(d, schema), schema)
	if d.Stats() != (Stats{Rows: 800, Rescued: 800}) {
		t.Fatalf("stats %+v, want 800 rows, all rescued", d.Stats())
	}
	raws := rawLines(t, githubFile)
	for i, r := range rows {
		var rescued struct {
			Actor    json.RawMessage `json:"actor"`
			FilePath string          `json:"_file_path"`
		}
		if err := json.Unmarshal([]byte(r["_rescued"]), &rescued); err != nil {
			t.Fatalf("row %d: rescued %s: %v", i, r["_rescued"], err)
		}
		if !bytes.Equal(rescued.Actor, raws[i]["actor"]) || rescued.FilePath != info.Path {
			t.Fatalf("row %d: rescued %s, want the actor %s and the file path", i, r["_rescued"], raws[i]["actor"])
		}
		if !strings.HasPrefix(r["actor"], "{id=") || strings.Contains(r["actor"], "NULL") {
			t.Fatalf("row %d: actor %s, want its id and login decoded", i, r["actor"])
		}
	}
}
