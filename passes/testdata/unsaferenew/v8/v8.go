package v8

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/go-redis/redis/v8"
)

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

type Lock struct {
	client *redis.Client
	name   string
	value  string
	expiry time.Duration
	stop   chan struct{}
}

// Obtain acquires the lock and starts a watchdog goroutine that renews it.
func (l *Lock) Obtain(ctx context.Context) (bool, error) {
	l.value = newToken()
	ok, err := l.client.SetNX(ctx, l.name, l.value, l.expiry).Result()
	if err != nil || !ok {
		return ok, err
	}
	go func() {
		ticker := time.NewTicker(l.expiry / 2)
		defer ticker.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-ticker.C:
				if err := l.client.PExpire(ctx, l.name, l.expiry).Err(); err != nil { // want `PExpire renews lock l.name in a loop`
					return
				}
			}
		}
	}()
	return true, nil
}

// renewLoop is started with go by Start; the key is a package-level
// variable.
var leaderKey = "leader"

func Start(ctx context.Context, rdb *redis.Client, id string) {
	if rdb.SetNX(ctx, leaderKey, id, 10*time.Second).Val() {
		go renewLoop(ctx, rdb, id)
	}
}

func renewLoop(ctx context.Context, rdb *redis.Client, id string) {
	for {
		time.Sleep(3 * time.Second)
		rdb.Expire(ctx, leaderKey, 10*time.Second) // want `Expire renews lock leaderKey in a loop`
	}
}

// --- silent ---

// Session sliding expiry in a loop: not a lock key.
func slide(ctx context.Context, rdb *redis.Client, sessions []string) {
	for _, s := range sessions {
		rdb.Expire(ctx, "session:"+s, 30*time.Minute)
	}
}
