package old

import (
	"time"

	v6 "github.com/go-redis/redis"
	v7 "github.com/go-redis/redis/v7"
)

func lockV6(rdb *v6.Client, key string) (bool, error) {
	if err := rdb.SetNX(key, "t", time.Minute).Err(); err != nil { // want `only the error of SetNX is checked`
		return false, err
	}
	defer rdb.Del(key)
	return true, nil
}

func lockV7(rdb *v7.Client, key string) {
	rdb.SetNX(key, "t", time.Minute) // want `the reply of SetNX is discarded`
	defer rdb.Del(key)
}

// --- silent ---

func okV6(rdb *v6.Client, key string) bool {
	ok, err := rdb.SetNX(key, "t", time.Minute).Result()
	if err != nil || !ok {
		return false
	}
	defer rdb.Del(key)
	return true
}

func okV7(rdb *v7.Client, key string) bool {
	if !rdb.SetNX(key, "t", time.Minute).Val() {
		return false
	}
	defer rdb.Del(key)
	return true
}
