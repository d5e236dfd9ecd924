package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// Released by overwriting the lock key with a plain SET.
func markDone(ctx context.Context, client rueidis.Client, key string, work func()) error {
	token := newToken()
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error(); err != nil {
		return ErrLocked
	}
	work()
	return client.Do(ctx, client.B().Set().Key(key).Value("done").Ex(5*time.Second).Build()).Error() // want `SET overwrites lock key key with "done" without checking the owner`
}

// --- silent ---

// SET … XX: a state change of a held key, not a blind overwrite.
func markXX(ctx context.Context, client rueidis.Client, key string) {
	token := newToken()
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error(); err != nil {
		return
	}
	client.Do(ctx, client.B().Set().Key(key).Value("done").Xx().Build())
}
