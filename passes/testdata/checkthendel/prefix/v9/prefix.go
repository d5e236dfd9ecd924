package v9

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// The owner is the process: the lock's value starts with the host name and
// the process id, then the time of the acquire; the release checks the
// prefix only.
var (
	hostname, _ = os.Hostname()
	pid         = os.Getpid()
)

func lockerValue() string {
	return fmt.Sprintf("owner:%s<%d>(%s)", hostname, pid, time.Now().Format(time.RFC3339Nano))
}

func mine(v string) bool {
	return strings.HasPrefix(v, fmt.Sprintf("owner:%s<%d>(", hostname, pid))
}

func lock(ctx context.Context, rdb *redis.Client, key string) bool {
	ok, _ := rdb.SetNX(ctx, key, lockerValue(), 10*time.Second).Result()
	return ok
}

// GET, the prefix check in a predicate of the package, DEL: two round
// trips. The DEL becomes a script that checks the prefix itself.
func unlock(ctx context.Context, rdb *redis.Client, key string) bool {
	v, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return false
	}
	if !mine(v) {
		return false
	}
	n, err := rdb.Del(ctx, key).Result() // want `Del of key after a separate GET and prefix compare can delete another holder's lock; compare and delete in one step`
	return err == nil && n == 1
}

// strings.HasPrefix in place, the value read in the if.
func unlockInline(ctx context.Context, rdb *redis.Client, key, owner string) {
	if strings.HasPrefix(rdb.Get(ctx, key).Val(), owner) {
		rdb.Del(ctx, key) // want `Del of key after a separate GET and prefix compare can delete another holder's lock`
	}
}

// --- silent ---

// A constant prefix is every holder's: no owner check to make atomic.
func unlockConstPrefix(ctx context.Context, rdb *redis.Client, key string) {
	lock(ctx, rdb, key)
	if strings.HasPrefix(rdb.Get(ctx, key).Val(), "owner:") {
		rdb.Del(ctx, key)
	}
}

// A predicate whose prefix depends on its other argument is not read.
func startsWith(v, p string) bool { return strings.HasPrefix(v, p) }

func unlockTwoArgs(ctx context.Context, rdb *redis.Client, key string) {
	lock(ctx, rdb, key)
	if v := rdb.Get(ctx, key).Val(); startsWith(v, "owner:") {
		rdb.Del(ctx, key)
	}
}
