package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

// IsRedisNil on the GET's error; the key deleted after the work.
func runOnce(ctx context.Context, client rueidis.Client, key, token string, work func()) error {
	err := client.Do(ctx, client.B().Get().Key(key).Build()).Error()
	if !rueidis.IsRedisNil(err) {
		return err
	}
	client.Do(ctx, client.B().Set().Key(key).Value(token).ExSeconds(30).Build()) // want `SET of key after a GET found it missing`
	work()
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// --- silent ---

// A cache fill.
func cached(ctx context.Context, client rueidis.Client, key string, fill func() string) string {
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if rueidis.IsRedisNil(err) {
		v = fill()
		client.Do(ctx, client.B().Set().Key(key).Value(v).ExSeconds(300).Build())
	}
	return v
}
