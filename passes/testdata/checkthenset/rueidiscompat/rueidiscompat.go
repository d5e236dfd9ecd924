package rueidiscompat

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

// rueidiscompat, go-redis' API over rueidis: reported, fixed to SetNX.
func TryLock(ctx context.Context, rdb rueidiscompat.Cmdable, key, token string) bool {
	if rdb.Get(ctx, key).Err() != rueidiscompat.Nil {
		return false
	}
	rdb.Set(ctx, key, token, 10*time.Second) // want `Set of key after a GET found it missing`
	return true
}

func Unlock(ctx context.Context, rdb rueidiscompat.Cmdable, key string) {
	rdb.Del(ctx, key)
}

// --- silent ---

// A session written when there is none.
func session(ctx context.Context, rdb rueidiscompat.Cmdable, sid string, data string) {
	if rdb.Get(ctx, "session:"+sid).Err() == rueidiscompat.Nil {
		rdb.Set(ctx, "session:"+sid, data, time.Hour)
	}
}
