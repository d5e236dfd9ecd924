package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// A count of milliseconds given to ExSeconds, seconds to PxMilliseconds.
func msToEx(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(ttl.Milliseconds()).Build()).Error() // want `TTL ttl\.Milliseconds\(\) is a count of milliseconds where SET takes seconds: the key lives 1000 times longer; pass int64\(ttl / time\.Second\)`
}

func secondsToPx(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(int64(ttl/time.Second)).Build()).Error() // want `TTL int64\(ttl / time\.Second\) is a count of seconds where SET takes milliseconds: the key lives a thousandth as long; pass ttl\.Milliseconds\(\)`
}

// --- silent: the units agree ---

func agreeEx(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(int64(ttl.Seconds())).Build()).Error()
}

func agreePx(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error()
}
