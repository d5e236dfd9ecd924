package v6

import "github.com/go-redis/redis"

// v6 has no context argument.
func release(rdb *redis.Client, key, token string) {
	if rdb.Get(key).Val() == token {
		rdb.Del(key) // want `Del of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

// --- silent ---

// A cache entry read, then invalidated: no comparison guards the DEL.
func invalidate(rdb *redis.Client, key string) string {
	v := rdb.Get(key).Val()
	rdb.Del(key)
	return v
}
