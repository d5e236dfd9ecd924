// Package mirror passes TTLs in the wrong unit through the project's own
// Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func typed(ctx context.Context, s store.Store, key, tok string) (bool, error) {
	return s.SetNX(ctx, key, tok, 30).Result() // want `TTL 30 is 30ns`
}

func converted(ctx context.Context, s store.Store, key string, lockSeconds int) {
	s.Expire(ctx, key, time.Duration(lockSeconds)) // want `reads lockSeconds, a count of seconds, as nanoseconds`
}

func forwarded(p *store.Pool, key, tok string, ttl time.Duration) {
	p.SafeDo("SET", key, tok, "NX", "EX", ttl) // want `TTL ttl is a time\.Duration where SET takes a whole number of seconds`
}

// --- silent ---

func typedOK(ctx context.Context, s store.Store, key, tok string) (bool, error) {
	return s.SetNX(ctx, key, tok, 30*time.Second).Result()
}

// Backend counts its TTLs in seconds: 30 is 30 seconds.
func plainOK(b store.Backend, key, tok string) (bool, error) {
	return b.SetNx(key, tok, 30)
}

func forwardedOK(p *store.Pool, key, tok string, ttl time.Duration) {
	p.SafeDo("SET", key, tok, "NX", "PX", ttl.Milliseconds())
}
