package v8

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/go-redis/redis/v8"
)

// A locker whose owner is the process: the value starts with the host
// name and the process id; Unlock checks that prefix once, then retries
// the DEL until it deletes something.
type locker struct {
	rdb redis.UniversalClient
}

var (
	hostname, _ = os.Hostname()
	pid         = os.Getpid()
)

func lockerValue() string {
	return fmt.Sprintf("owner:%s<%d>(%s)", hostname, pid, time.Now().Format(time.RFC3339Nano))
}

func holder(v string) bool {
	return strings.HasPrefix(v, fmt.Sprintf("owner:%s<%d>(", hostname, pid))
}

func (l *locker) TryLock(ctx context.Context, key string) bool {
	ok, _ := l.rdb.SetNX(ctx, key, lockerValue(), 10*time.Second).Result()
	return ok
}

// The retries compare the prefix in the script, as the check before them
// did: each deletes only while the key is still this process's.
func (l *locker) Unlock(ctx context.Context, key string) bool {
	lv, err := l.rdb.Get(ctx, key).Result()
	if err != nil || !holder(lv) {
		return false
	}
	n, err := l.rdb.Del(ctx, key).Result()
	if n != 1 || err != nil {
		ticker := time.NewTicker(100 * time.Millisecond)
		defer ticker.Stop()
	LOOP:
		for {
			select {
			case <-ctx.Done():
				break LOOP
			case <-ticker.C:
				n, err = l.rdb.Del(ctx, key).Result() // want `Del of lock key key is retried until it deletes something: after the TTL, a retry deletes the next holder's lock`
				if n > 0 && err == nil {
					break LOOP
				}
			}
		}
	}
	return n == 1
}
