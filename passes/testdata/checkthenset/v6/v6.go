package v6

import (
	"time"

	"github.com/go-redis/redis"
)

// go-redis v6: reported, fixed to SetNX.
func acquireSlot(rdb *redis.Client, slot, token string) (bool, error) {
	_, err := rdb.Get("slot:" + slot).Result()
	if err == nil {
		return false, nil
	}
	if err != redis.Nil {
		return false, err
	}
	if err := rdb.Set("slot:"+slot, token, time.Minute).Err(); err != nil { // want `Set of "slot:" \+ slot after a GET found it missing`
		return false, err
	}
	return true, nil
}

func releaseSlot(rdb *redis.Client, slot string) {
	rdb.Del("slot:" + slot)
}

// --- silent ---

// A default stored when missing.
func defaults(rdb *redis.Client) {
	if rdb.Get("config:mode").Err() == redis.Nil {
		rdb.Set("config:mode", "safe", 0)
	}
}
