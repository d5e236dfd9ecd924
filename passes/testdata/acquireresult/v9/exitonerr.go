package v9

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/redis/go-redis/v9"
)

// A helper of the package that ends the process when the error is set:
// past the call, the error is nil.
func failOnError(err error, msg string) {
	if err != nil {
		log.Fatalf("%s: %s", msg, err)
	}
}

func mustNot(msg string, err error) {
	if nil != err {
		fmt.Fprintln(os.Stderr, msg, err)
		os.Exit(1)
	}
}

// A helper that only logs: the process goes on, so does the path.
func logError(err error) {
	if err != nil {
		log.Print(err)
	}
}

// A helper that exits on another condition.
func exitIfEmpty(err error, s string) {
	if s == "" {
		log.Fatal(err)
	}
}

// --- silent ---

// SET NX reports busy as redis.Nil: both a busy lock and a failure end
// the process, so the work runs only with the lock.
func exitsOnError(ctx context.Context, rdb *redis.Client, key, token string) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	failOnError(err, "lock")
	_ = work(ctx)
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

func exitsOnErrorSecondArg(ctx context.Context, rdb *redis.Client, key, token string) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	mustNot("lock", err)
	_ = work(ctx)
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

// --- bugs ---

func onlyLogged(ctx context.Context, rdb *redis.Client, key, token string) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `when SetArgs fails, this path still runs the work and the release without the lock; stop on the error`
	logError(err)
	_ = work(ctx)
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

func exitsOnOtherTest(ctx context.Context, rdb *redis.Client, key, token string) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `when SetArgs fails, this path still runs the work and the release without the lock; stop on the error`
	exitIfEmpty(err, key)
	_ = work(ctx)
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

// A failure ends the process, but a busy lock goes on to the release.
func releasedWhenBusy(ctx context.Context, rdb *redis.Client, key, token string) {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `when SetNX finds the lock busy, this path still runs the work and the release; stop when the key was not set`
	failOnError(err, "lock")
	if ok {
		_ = work(ctx)
	}
	unlockScript.Run(ctx, rdb, []string{key}, token)
}
