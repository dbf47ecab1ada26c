package delta_test

import (
	"errors"
	"testing"

	"github.com/pipegen/pipegen/runtime/delta"
)

func TestRetry(t *testing.T) {
	calls := 0
	err := delta.Retry(func() error {
		calls++
		if calls < 3 {
			return &delta.ConflictError{Table: "t", Version: int64(calls)}
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("Retry after two conflicts: %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	err = delta.Retry(func() error { calls++; return &delta.ConflictError{Table: "t"} })
	if !errors.Is(err, delta.ErrConflict) || calls != delta.CommitRetries+1 {
		t.Errorf("Retry of a commit that always conflicts: %v after %d calls, want ErrConflict after %d", err, calls, delta.CommitRetries+1)
	}
	calls = 0
	other := errors.New("disk full")
	if err := delta.Retry(func() error { calls++; return other }); err != other || calls != 1 {
		t.Errorf("Retry of another error: %v after %d calls, want it at once", err, calls)
	}
}
