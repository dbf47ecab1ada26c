package runtime

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// Trigger says when flows advance (Structured Streaming's triggers); the
// zero Trigger is available_now. ParseTrigger reads the --trigger flag.
type Trigger struct {
	// once runs one micro-batch per streaming flow, ignoring per-trigger
	// limits (Trigger.Once).
	once bool
	// interval > 0 keeps the program running, one update per interval
	// (Trigger.ProcessingTime).
	interval time.Duration
}

// ParseTrigger parses "available_now" (or ""), "once" or "interval=30s"
// (also "interval 30s"; any time.ParseDuration above zero); the error
// names what it wants.
func ParseTrigger(s string) (Trigger, error) {
	switch s = strings.TrimSpace(s); {
	case s == "" || s == "available_now":
		return Trigger{}, nil
	case s == "once":
		return Trigger{once: true}, nil
	case strings.HasPrefix(s, "interval"):
		v := strings.TrimLeft(strings.TrimPrefix(s, "interval"), "= ")
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Trigger{}, fmt.Errorf("trigger %q: want interval=DURATION such as interval=30s", s)
		}
		return Trigger{interval: d}, nil
	}
	return Trigger{}, fmt.Errorf("trigger %q: want available_now, once or interval=DURATION", s)
}

// String is t as ParseTrigger reads it: available_now, once or
// interval=30s.
func (t Trigger) String() string {
	switch {
	case t.once:
		return "once"
	case t.interval > 0:
		return "interval=" + t.interval.String()
	}
	return "available_now"
}

// nextBoundary returns the first interval boundary after t: boundaries are
// the multiples of the interval since the Unix epoch, as Structured
// Streaming's ProcessingTimeExecutor aligns them.
func nextBoundary(t time.Time, interval time.Duration) time.Time {
	n := t.UnixNano()
	return time.Unix(0, n-n%int64(interval)+int64(interval))
}

// stopNotice is printed when a signal asks the program to stop.
const stopNotice = "%s: %s: stopping after the running micro-batches commit (send it again to stop at once)\n"

// Run runs the pipeline with trigger tr: one update, or, with an interval
// trigger, one update per interval until SIGINT or SIGTERM.
//
// A first SIGINT or SIGTERM lets the running micro-batches (and
// materialized view refreshes) finish and commit, starts nothing new,
// ends the update as CANCELED, releases the lock and returns nil: the
// program exits 0 (1 when the last update an interval trigger ran to its
// end failed). A second signal exits at once with status 130; the
// checkpoints make that as safe as a crash. opts.Stop, when set, is
// closed by the caller for the same effect.
func Run(p *Pipeline, opts RunOptions, tr Trigger) error {
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case s := <-sigs:
			if tr.interval > 0 {
				fmt.Fprint(stderr, LogTime()+" ")
			}
			fmt.Fprintf(stderr, stopNotice, p.Name, s)
			close(stop)
		case <-opts.Stop:
			close(stop)
		case <-done:
			return
		}
		select {
		case <-sigs:
			os.Exit(130)
		case <-done:
		}
	}()
	opts.Stop = stop
	return runTriggered(p, opts, tr, realClock{})
}

// clock is the time source of the interval trigger (a fake one in tests).
type clock interface {
	Now() time.Time
	// After is time.After.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// runTriggered runs one update, or with an interval trigger keeps running
// updates, holding the pipeline's lock throughout: each update starts at
// an interval boundary; one that overruns its interval is followed at once
// by the next; boundaries missed meanwhile are not made up. A failed
// update is reported and the next one runs at the next boundary; an error
// outside the flows (parameters, lock, checks) ends the program.
func runTriggered(p *Pipeline, opts RunOptions, tr Trigger, clk clock) error {
	if tr.interval <= 0 {
		return runUpdate(p, opts, tr, nil)
	}
	lk, err := acquireLock(StorageDir(opts.Warehouse, opts.Storage, p.Name), newID())
	if err != nil {
		var le *lockedError
		if u, uerr := newUpdate(p, opts, tr); errors.As(err, &le) && uerr == nil {
			u.logRefused(opts, tr, le) // as runUpdate does
		}
		return err
	}
	defer lk.release()
	// A failed update does not stop the trigger (the next interval may
	// succeed), but the program's exit status reports the last update
	// that ran to its end: one the stop interrupted says nothing.
	var last error
	err = intervalLoop(clk, tr.interval, opts.Stop, func() error {
		err := runUpdate(p, opts, tr, lk)
		if errors.Is(err, errUpdateFailed) {
			last = err // runUpdate has reported it
			return nil
		}
		if err == nil && !stopped(opts.Stop) {
			last = nil
		}
		return err
	})
	if err != nil {
		return err
	}
	if last != nil {
		return &reportedError{last}
	}
	return nil
}

// reportedError is the interval trigger's last failed update, which it
// reported when the update ended, stamped: at exit the program gives only
// its exit status.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

// Reported says whether err, returned by Run, is the last failed update
// of an interval trigger, which Run has already printed (stamped, when the
// update ended): the command line then prints only the exit status.
func Reported(err error) bool {
	var rep *reportedError
	return errors.As(err, &rep)
}

// intervalLoop calls update at each interval boundary until stop is
// closed or update returns an error: the next call waits for the first
// boundary after the previous call started, or starts at once when that
// boundary has passed (an overrun); boundaries that passed meanwhile are
// skipped, not made up.
func intervalLoop(clk clock, interval time.Duration, stop <-chan struct{}, update func() error) error {
	for {
		next := nextBoundary(clk.Now(), interval)
		if err := update(); err != nil {
			return err
		}
		if stopped(stop) {
			return nil
		}
		if wait := next.Sub(clk.Now()); wait > 0 {
			select {
			case <-stop:
				return nil
			case <-clk.After(wait):
			}
		}
	}
}

// stopped reports whether stop is closed (a nil channel never is).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}
