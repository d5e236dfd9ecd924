package v7

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/go-redis/redis/v7"
)

func constant(rdb *redis.Client, key string) {
	if !rdb.SetNX(key, "locked", time.Minute).Val() { // want `lock key is acquired with the constant "locked" and released, so no owner check can tell holders apart; use a random token`
		return
	}
	defer rdb.Del(key)
}

// --- silent ---

func random(rdb *redis.Client, key string) {
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	if !rdb.SetNX(key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(key)
}
