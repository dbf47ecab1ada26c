package runtime

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// fakeClock advances only when an update takes time or the loop waits.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }
func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

// TestIntervalLoop checks the processing-time schedule: updates start at
// interval boundaries; an update that overruns is followed at once by the
// next; the boundaries it overran are not made up.
func TestIntervalLoop(t *testing.T) {
	const interval = 10 * time.Second
	epoch := time.Unix(1_000_000_000, 0) // a multiple of 10s
	clk := &fakeClock{now: epoch.Add(3 * time.Second)}
	// Durations of the successive updates, in seconds.
	durations := []float64{2, 25, 1, 12, 0, 4}
	var starts []float64
	stop := make(chan struct{})
	err := intervalLoop(clk, interval, stop, func() error {
		i := len(starts)
		starts = append(starts, clk.now.Sub(epoch).Seconds())
		clk.now = clk.now.Add(time.Duration(durations[i] * float64(time.Second)))
		if i == len(durations)-1 {
			close(stop)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 3: first at once; 10: next boundary; 35: update 2 overran 20 and 30,
	// so it starts at once; 40: boundary after 35; 52: overran 50, at once;
	// 60: boundary.
	if want := []float64{3, 10, 35, 40, 52, 60}; !slices.Equal(starts, want) {
		t.Errorf("updates started at %v s, want %v", starts, want)
	}
	// An update's error ends the loop; a stop before the wait ends it too.
	boom := errors.New("boom")
	if err := intervalLoop(clk, interval, nil, func() error { return boom }); err != boom {
		t.Errorf("error: %v", err)
	}
	if got := nextBoundary(time.Unix(95, 0), interval); !got.Equal(time.Unix(100, 0)) {
		t.Errorf("next boundary after 95s: %v", got)
	}
	if got := nextBoundary(time.Unix(100, 0), interval); !got.Equal(time.Unix(110, 0)) {
		t.Errorf("next boundary after 100s: %v", got)
	}
}
