package rueidis

import (
	"context"
	"errors"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

var errBusy = errors.New("busy")

var unlockScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// SETNX, released by a deferred DEL in the same function.
func deferDel(ctx context.Context, client rueidis.Client, key, token string) error {
	ok, err := client.Do(ctx, client.B().Setnx().Key(key).Value(token).Build()).AsBool() // want `lock key is acquired by SETNX with no TTL and nothing expires it: a dead holder keeps it forever; use B\(\)\.Set\(\)…\.Nx\(\)\.PxMilliseconds\(ms\); then its DEL must check the owner \(LV201\)`
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return work(ctx)
}

// SET NX without an expiry; the struct's Unlock releases with the
// compare-and-delete script.
type Mutex struct {
	client rueidis.Client
	key    string
	token  string
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().Build()).Error() // want `lock m\.key is acquired by SET with no TTL and nothing expires it: a dead holder keeps it forever; add \.PxMilliseconds\(ms\) to the SET`
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Exec(ctx, m.client, []string{m.key}, []string{m.token}).Error()
}

// KEEPTTL on an absent key leaves none.
func keepTTL(ctx context.Context, client rueidis.Client, key string) {
	if client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().Keepttl().Build()).Error() != nil { // want `lock key is acquired by SET with no TTL`
		return
	}
	work(ctx)
	client.Do(ctx, client.B().Unlink().Key(key).Build())
}

// --- silent ---

// With a TTL.
func withTTL(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() != nil {
		return
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	work(ctx)
}

// Expired right after (LV101's finding).
func expiredAfter(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Setnx().Key(key).Value("1").Build())
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build())
	defer client.Do(ctx, client.B().Del().Key(key).Build())
}

// A set-once marker, never released.
func marker(ctx context.Context, client rueidis.Client, id string) bool {
	ok, _ := client.Do(ctx, client.B().Setnx().Key("migrated:"+id).Value("1").Build()).AsBool()
	return ok
}

// rueidislock sets its own TTL and renews it.
func withLocker(ctx context.Context, locker rueidislock.Locker) error {
	ctx, cancel, err := locker.WithContext(ctx, "job")
	if err != nil {
		return err
	}
	defer cancel()
	return work(ctx)
}

func work(context.Context) error { return nil }
