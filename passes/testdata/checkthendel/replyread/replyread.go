package replyread

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The GET's reply read by a typed reader in an if statement's init: the
// compare is there, in a separate round trip (LV202, not an unchecked
// DEL).
func lockStamp(ctx context.Context, rdb *redis.Client, key string) {
	ts := time.Now().UnixNano()
	if ok, err := rdb.SetNX(ctx, key, ts, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	doWork()
	if v, _ := rdb.Get(ctx, key).Int64(); v == ts {
		rdb.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock`
	}
}

// The command value kept in a variable, its reply read through it.
func lockCmdVar(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	doWork()
	getCmd := rdb.Get(ctx, key)
	if getCmd.Err() != nil {
		return
	}
	value := getCmd.Val()
	if value != token {
		return
	}
	if err := rdb.Del(ctx, key).Err(); err != nil { // want `Del of key after a separate GET compare can delete another holder's lock`
		return
	}
}

// The command value read in place in the compare.
func lockCmdInline(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	doWork()
	cmd := rdb.Get(ctx, key)
	if cmd.Val() == token {
		rdb.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock`
	}
}

// --- silent ---

// The command value's reply is read again after the variable is
// reassigned: the compare reads another GET's reply (of another key).
func cmdReassigned(ctx context.Context, rdb *redis.Client, key, other, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	cmd := rdb.Get(ctx, key)
	cmd = rdb.Get(ctx, other)
	if cmd.Val() == token {
		rdb.Del(ctx, key)
	}
}

// After the compare, the DEL retried in a loop until it deletes
// something: the retries are LV201's finding (the compare is not made
// again before them), not this check's.
func lockRetry(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result(); err != nil || !ok {
		return
	}
	if rdb.Get(ctx, key).Val() != token {
		return
	}
	for rdb.Del(ctx, key).Val() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
}

func doWork() {}
