package lint

import "sync"

// Cache holds results that repeat across tools and rounds of a run. Keys are
// chosen by the rule that stores them; prefix them with the rule ID.
type Cache struct {
	m sync.Map
}

// Get returns the value stored under key, computing it with fn on first use.
// Concurrent first uses may both compute; one result wins.
func (c *Cache) Get(key string, fn func() any) any {
	if c == nil {
		return fn()
	}
	if v, ok := c.m.Load(key); ok {
		return v
	}
	v, _ := c.m.LoadOrStore(key, fn())
	return v
}
