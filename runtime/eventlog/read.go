package eventlog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pipegen/pipegen/runtime/storage"
)

// Print writes the event log under the storage location storageDir to w:
// every update's events in the order they were written, or, when updateID
// is not empty, only those of the updates whose file name holds
// "-"+updateID (an update id or its prefix, as Print shows it). With asJSON it writes the raw
// JSON lines; otherwise one line an event (time, update id's first 8
// characters, level, event type, message) and, for an event with an error,
// the first message of its chain. Lines that are not JSON (a record cut by
// a crash) are skipped. It fails when there is no event log or no update
// matches.
func Print(storageDir, updateID string, asJSON bool, w io.Writer) error {
	dir := storage.Join(storageDir, folder)
	log := storage.At(dir)
	entries, err := log.List("", storage.ListOptions{Shallow: true, NamesOnly: true})
	if err == nil && len(entries) == 0 {
		_, err = log.Stat("")
	}
	if err != nil {
		return fmt.Errorf("events: no event log at %s: run an update first", dir)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") && (updateID == "" || strings.Contains(e.Name(), "-"+updateID)) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("events: no update %q in %s", updateID, dir)
	}
	sort.Strings(names)
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	for _, n := range names {
		f, err := log.Open(n)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			if asJSON {
				fmt.Fprintln(bw, sc.Text())
				continue
			}
			var rec record
			if json.Unmarshal(sc.Bytes(), &rec) != nil {
				continue
			}
			update := fmt.Sprint(rec.Origin["update_id"])
			if len(update) > 8 {
				update = update[:8]
			}
			fmt.Fprintf(bw, "%s %s %-5s %-20s %s\n", rec.Timestamp, update, rec.Level, rec.EventType, rec.Message)
			if rec.Error != nil {
				for _, e := range rec.Error.Exceptions {
					fmt.Fprintf(bw, "    %s\n", e["message"])
					break
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	return nil
}
