package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

type config struct{ LockSeconds int }

// Ex truncates to whole seconds: EX 0, and the SET fails.
func subSecondEx(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(500*time.Millisecond).Build()).Error() // want `TTL 500 \* time\.Millisecond is 500ms, sent as 0 whole seconds: Redis rejects the SET, so the lock is never acquired; pass at least 1s, or use PX`
}

// Px truncates to whole milliseconds.
func subMillisecondPx(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Set().Key(key).Value("v").Px(800*time.Microsecond).Build()) // want `TTL 800 \* time\.Microsecond is 800µs, sent as 0 whole milliseconds: Redis rejects the SET, so the write fails; pass at least 1ms`
}

// Through a local variable.
func viaVariable(ctx context.Context, client rueidis.Client, key, token string) {
	ttl := 250 * time.Millisecond
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(ttl).Build()) // want `TTL ttl is 250ms, sent as 0 whole seconds: Redis rejects the SET, so the lock is never acquired; pass at least 1s, or use PX`
}

// A bare number is nanoseconds.
func nanoseconds(ctx context.Context, client rueidis.Client, key, token string) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(30).Build()) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// A count converted to a time.Duration without a unit.
func conversion(ctx context.Context, client rueidis.Client, key, token string, cfg config) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(time.Duration(cfg.LockSeconds)).Build()) // want `TTL time.Duration\(cfg.LockSeconds\) reads cfg.LockSeconds, a count of seconds, as nanoseconds`
}

// EXPIRE 0 deletes the key.
func expireZero(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Expire().Key(key).Seconds(0).Build()) // want `EXPIRE with a TTL of 0 deletes key at once`
}

// A point in time used as a length of time.
func absolute(ctx context.Context, client rueidis.Client, key, token string, deadline time.Time) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(deadline.Unix()).Build()) // want `TTL deadline.Unix\(\) is computed from deadline.Unix\(\), a point in time`
}

// --- silent ---

func correct(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(2*time.Second).Build())
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(500*time.Millisecond).Build())
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(ttl).Build())
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build())
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build())
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Exat(time.Now().Add(ttl)).Build())
	client.Do(ctx, client.B().Expireat().Key(key).Timestamp(time.Now().Add(ttl).Unix()).Build())
	client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(ttl.Milliseconds()).Build())
}
