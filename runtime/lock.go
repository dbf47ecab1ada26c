package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/pipegen/pipegen/runtime/storage"
)

// lock is the pipeline's exclusive update lock: an flock(2) on
// <storage>/lock. The kernel releases it when the process ends, however it
// ends, so a lock left by a killed run is reclaimed by the next one.
type lock struct {
	l storage.Lock
}

// lockInfo is written into the lock file for the message a second run
// prints.
type lockInfo struct {
	PID     int       `json:"pid"`
	Update  string    `json:"update_id"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
}

// ErrLocked is returned when another update holds the pipeline's lock.
var ErrLocked = errors.New("another update holds the pipeline's lock")

// acquireLock takes the lock or fails at once with ErrLocked.
func acquireLock(dir, updateID string) (*lock, error) {
	st, ok := storage.At(dir).(storage.Locker)
	if !ok {
		return nil, fmt.Errorf("lock: the storage location %s gives no lock", dir)
	}
	host, _ := os.Hostname()
	info, _ := json.Marshal(lockInfo{PID: os.Getpid(), Update: updateID, Host: host, Started: time.Now().UTC()})
	l, err := st.Lock("lock", append(info, '\n'))
	var held *storage.LockedError
	if errors.As(err, &held) {
		var info lockInfo
		le := &lockedError{path: storage.Join(dir, "lock")}
		if json.Unmarshal(held.Holder, &info) == nil && info.PID != 0 {
			le.holder = &info
		}
		return nil, le
	}
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	return &lock{l: l}, nil
}

// lockedError is acquireLock's error when another process holds the
// lock: it wraps ErrLocked and says who holds it, when the lock file says.
type lockedError struct {
	path   string
	holder *lockInfo
}

func (e *lockedError) Error() string {
	if h := e.holder; h != nil {
		return fmt.Sprintf("%v (update %s, pid %d on %s, started %s); wait for it to finish",
			ErrLocked, shortID(h.Update), h.PID, h.Host, h.Started.Format(time.RFC3339))
	}
	return fmt.Sprintf("%v (%s); wait for it to finish", ErrLocked, e.path)
}

func (e *lockedError) Unwrap() error { return ErrLocked }

// release unlocks (the file stays, so the next run can lock it).
func (l *lock) release() { l.l.Release() }
