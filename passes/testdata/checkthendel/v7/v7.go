package v7

import "github.com/go-redis/redis/v7"

func unlock(rdb *redis.Client, key, token string) {
	if rdb.Get(key).Val() == token {
		rdb.Del(key) // want `Del of key after a separate`
	}
}

// --- silent ---

// A cache entry read, then invalidated: no comparison guards the DEL.
func invalidate(rdb *redis.Client, key string) string {
	v := rdb.Get(key).Val()
	rdb.Del(key)
	return v
}
