package old

import (
	"time"

	v6 "github.com/go-redis/redis"
	v7 "github.com/go-redis/redis/v7"
)

// v6: no context argument.
func lockV6(rdb *v6.Client, key string) {
	if rdb.SetNX(key, "t", 0).Val() { // want `lock key is acquired by SetNX with no TTL`
		defer rdb.Del(key)
	}
}

// v7.
func lockV7(rdb *v7.Client, key string) {
	if rdb.SetNX(key, "t", 0).Val() { // want `lock key is acquired by SetNX with no TTL`
		defer rdb.Unlink(key)
	}
}

// --- silent ---

func ttlV6(rdb *v6.Client, key string) {
	if rdb.SetNX(key, "t", time.Minute).Val() {
		defer rdb.Del(key)
	}
}

func ttlV7(rdb *v7.Client, key string) {
	if rdb.SetNX(key, "t", time.Minute).Val() {
		defer rdb.Del(key)
	}
}
