package cli

import (
	"strings"
	"testing"
)

func TestLocalLocation(t *testing.T) {
	for loc, want := range map[string]string{"wh": "wh", "/data/wh": "/data/wh", "file:///data/wh": "/data/wh"} {
		if got, err := localLocation(loc); err != nil || got != want {
			t.Errorf("localLocation(%q) = %q, %v; want %q", loc, got, err, want)
		}
	}
	for _, loc := range []string{"s3://bucket/wh", "file://host/wh"} {
		if _, err := localLocation(loc); err == nil || !strings.Contains(err.Error(), loc) {
			t.Errorf("localLocation(%q): %v, want an error naming it", loc, err)
		}
	}
}
