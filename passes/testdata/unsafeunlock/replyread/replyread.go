package replyread

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// --- silent here: the DEL follows a GET compare (LV202's finding) ---

// The GET's reply read by a typed reader in an if statement's init.
func stampUnlock(ctx context.Context, rdb *redis.Client, key string) {
	ts := time.Now().UnixNano()
	if ok, err := rdb.SetNX(ctx, key, ts, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	if v, _ := rdb.Get(ctx, key).Int64(); v == ts {
		rdb.Del(ctx, key)
	}
}

// The command value kept in a variable, its error checked, its value
// read into another and compared.
func cmdVarUnlock(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	getCmd := rdb.Get(ctx, key)
	if getCmd.Err() != nil {
		return
	}
	value := getCmd.Val()
	if value != token {
		return
	}
	rdb.Del(ctx, key)
}
