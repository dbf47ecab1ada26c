package runtime

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressThreshold is the backlog above which a flow shows a progress bar
// (when stderr is a terminal): below it a flow ends before a bar helps.
const progressThreshold = 64 << 20

// progress draws one flow's progress over its backlog on stderr while it
// runs, when stderr is a terminal and the backlog is large.
type progress struct {
	bar  *progressbar.ProgressBar
	done atomic.Int64 // bytes processed so far
	stop chan struct{}
	wg   sync.WaitGroup
}

// startProgress returns a progress display, or nil when none is wanted.
func startProgress(w io.Writer, flow string, backlogBytes int64) *progress {
	f, ok := w.(*os.File)
	if !ok || backlogBytes < progressThreshold || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	p := &progress{
		bar: progressbar.NewOptions64(backlogBytes,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("flow "+flow),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		),
		stop: make(chan struct{}),
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.bar.Set64(p.done.Load())
			}
		}
	}()
	return p
}

// add records processed bytes (nil-safe).
func (p *progress) add(n int64) {
	if p != nil {
		p.done.Add(n)
	}
}

// finish removes the bar (nil-safe).
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.bar.Finish()
}
