package lock

import (
	"context"
	"time"
)

// Locker builds its keys from its prefix and a name: two lockers with
// different prefixes lock different keys with the same name.
type Locker struct {
	Prefix string
}

func (l *Locker) Take(ctx context.Context, name string) (bool, error) { // want Take:"acquire-funcs:key=1"
	return rdb.SetNX(ctx, l.Prefix+name, "1", time.Minute).Result()
}

// Drop deletes the key, whoever holds it; not paired with Take here.
func (l *Locker) Drop(ctx context.Context, name string) error { // want Drop:"release-funcs:key=1"
	return rdb.Del(ctx, l.Prefix+name).Err()
}
