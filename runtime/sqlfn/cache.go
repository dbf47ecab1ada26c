package sqlfn

import "sync"

// cacheSize bounds each cache: patterns computed per row (a column used as
// a LIKE pattern or a date format) must not grow memory without bound.
const cacheSize = 256

// cache memoizes compiled patterns (LIKE, regular expressions, date-time
// formats, zones) by their text. It is safe for concurrent use and starts
// over when full.
type cache[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// get returns the value for k, computing it with build on a miss.
func (c *cache[K, V]) get(k K, build func(K) V) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = build(k)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= cacheSize {
		c.m = make(map[K]V)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
