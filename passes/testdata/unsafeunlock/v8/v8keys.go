package v8

import (
	"context"
	"time"

	goredis "github.com/go-redis/redis/v8"

	"lockvet.test/keyspace"
)

const (
	vatLockFmt  = "vat:%d:stir:lock"
	vatTempFmt  = "vat:%d:temp"
	vatTokenFmt = "vat:%d:owner:lock"
)

// --- reported ---

// The stirring lock is taken with a constant by one function and dropped
// by another that knows nothing of who holds it now.
func startStirring(ctx context.Context, rdb goredis.UniversalClient, vat int) (bool, error) {
	return rdb.SetNX(ctx, keyspace.Key(vatLockFmt, vat), "1", 10*time.Second).Result()
}

func abortStirring(ctx context.Context, rdb goredis.UniversalClient, vat int) error {
	return rdb.Del(ctx, keyspace.Key(vatLockFmt, vat)).Err() // want `Del of lock key keyspace\.Key\(vatLockFmt, vat\) does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

// --- silent ---

// A temperature reading, cached and evicted through the same key function.
func recordTemp(ctx context.Context, rdb goredis.UniversalClient, vat int, t string) {
	rdb.Set(ctx, keyspace.Key(vatTempFmt, vat), t, time.Minute)
}

func clearTemp(ctx context.Context, rdb goredis.UniversalClient, vat int) {
	rdb.Del(ctx, keyspace.Key(vatTempFmt, vat))
}

// The owner lock: a token, released by a compare-and-delete script.
const vatCAD = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

func ownVat(ctx context.Context, rdb goredis.UniversalClient, vat int, tok string) bool {
	return rdb.SetNX(ctx, keyspace.Key(vatTokenFmt, vat), tok, time.Minute).Val()
}

func disownVat(ctx context.Context, rdb goredis.UniversalClient, vat int, tok string) {
	rdb.Eval(ctx, vatCAD, []string{keyspace.Key(vatTokenFmt, vat)}, tok)
}
