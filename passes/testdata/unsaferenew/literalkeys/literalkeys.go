// Package literalkeys is the shape of go-redis' bench_test.go, found by
// the sweep: a benchmark SETs and EXPIREs the literal key "key" in a
// loop, and an unrelated test elsewhere SETNXes the same literal. The
// EXPIRE renews no lock, so nothing here is reported.
package literalkeys

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func testSetNX(ctx context.Context, client *redis.Client) bool {
	return client.SetNX(ctx, "key", "hello", 0).Val()
}

func benchmarkSetExpire(ctx context.Context, client *redis.Client, n int) error {
	for range n {
		if err := client.Set(ctx, "key", "hello", 0).Err(); err != nil {
			return err
		}
		if err := client.Expire(ctx, "key", time.Second).Err(); err != nil {
			return err
		}
	}
	return nil
}
