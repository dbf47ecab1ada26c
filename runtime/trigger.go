package runtime

import (
	"fmt"
	"strings"
	"time"
)

// trigger says when flows advance (Structured Streaming's triggers).
type trigger struct {
	// once runs one micro-batch per streaming flow, ignoring per-trigger
	// limits (Trigger.Once).
	once bool
	// interval > 0 keeps the program running, one update per interval
	// (Trigger.ProcessingTime).
	interval time.Duration
}

// parseTrigger parses "available_now", "once" or "interval=30s" (also
// "interval 30s").
func parseTrigger(s string) (trigger, error) {
	switch s = strings.TrimSpace(s); {
	case s == "" || s == "available_now":
		return trigger{}, nil
	case s == "once":
		return trigger{once: true}, nil
	case strings.HasPrefix(s, "interval"):
		v := strings.TrimLeft(strings.TrimPrefix(s, "interval"), "= ")
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return trigger{}, fmt.Errorf("trigger %q: want interval=DURATION such as interval=30s", s)
		}
		return trigger{interval: d}, nil
	}
	return trigger{}, fmt.Errorf("trigger %q: want available_now, once or interval=DURATION", s)
}

func (t trigger) String() string {
	switch {
	case t.once:
		return "once"
	case t.interval > 0:
		return "interval=" + t.interval.String()
	}
	return "available_now"
}
