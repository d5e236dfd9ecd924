// Package literalkeys is the shape of a client library's own test suite
// (found by the sweep in go-redis' commands_test.go and bench_test.go):
// unrelated tests reuse the literal key "key" for every command. A SETNX
// of "key" in one test and an EXPIRE or DEL of "key" in another are not
// one lock, so nothing here is reported. The same literal named like a
// lock ("lock:report") still pairs across functions.
package literalkeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func testSetNX(ctx context.Context, client *redis.Client) bool {
	setNX := client.SetNX(ctx, "key", "hello", 0)
	if !setNX.Val() {
		return false
	}
	return !client.SetNX(ctx, "key", "hello2", time.Second).Val()
}

func testExpire(ctx context.Context, client *redis.Client) error {
	if err := client.Set(ctx, "key", "Hello", 0).Err(); err != nil {
		return err
	}
	return client.Expire(ctx, "key", 10*time.Second).Err()
}

func testDel(ctx context.Context, client *redis.Client) error {
	return client.Del(ctx, "key").Err()
}

func lockReport(ctx context.Context, rdb *redis.Client) (bool, error) {
	return rdb.SetNX(ctx, "lock:report", "1", time.Minute).Result() // want `lock "lock:report" is acquired with the constant "1"`
}

func unlockReport(ctx context.Context, rdb *redis.Client) error {
	return rdb.Del(ctx, "lock:report").Err()
}
