package lock

import (
	"context"
	"strings"
	"time"
)

// Store builds its keys with a method of its own: two stores with
// different prefixes lock different keys with the same name.
type Store struct {
	prefix string
}

func (s *Store) key(parts ...string) string { return s.prefix + strings.Join(parts, ":") }

func (s *Store) Grab(ctx context.Context, name string, ttl time.Duration) (bool, error) { // want Grab:"acquire-funcs:key=1,ttl=2,unit=duration"
	return rdb.SetNX(ctx, s.key("lease", name), "1", ttl).Result()
}

// Let deletes the key, whoever holds it; not paired with Grab here.
func (s *Store) Let(ctx context.Context, name string) error { // want Let:"release-funcs:key=1"
	return rdb.Del(ctx, s.key("lease", name)).Err()
}

// Other builds another key from the same name: no pair with Grab.
func (s *Store) Other(ctx context.Context, name string) error { // want Other:"release-funcs:key=1"
	return rdb.Del(ctx, s.key("cache", name)).Err()
}
