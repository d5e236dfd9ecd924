// Package locklibs: the TTLs handed to lock libraries (redsync's
// WithExpiry, bsm/redislock's Obtain and Refresh, rueidislock's
// KeyValidity) are time.Duration values, so a bare number is nanoseconds.
package locklibs

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

type config struct {
	LockTTL     time.Duration
	LockSeconds int
	LockMillis  int
}

const lockTTL = 30

func work(context.Context) error { return nil }

// --- bugs ---

// redsync: WithExpiry(30) asks for a 30ns mutex.
func redsyncExpiry(ctx context.Context, rdb *redis.Client) error {
	m := redsync.New(goredis.NewPool(rdb)).NewMutex("report", redsync.WithExpiry(30)) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock library's TTL is at most 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return work(ctx)
}

// redsync: an untyped constant declared without a unit.
func redsyncConst(rs *redsync.Redsync) *redsync.Mutex {
	return rs.NewMutex("report", redsync.WithExpiry(lockTTL)) // want `TTL lockTTL is 30ns \(a time\.Duration counts nanoseconds\), so the lock library's TTL is at most 1 ms; declare lockTTL as 30 \* time\.Second or 30 \* time\.Millisecond`
}

// redsync: a count of seconds converted without a unit.
func redsyncConv(rs *redsync.Redsync, cfg config) *redsync.Mutex {
	return rs.NewMutex("report", redsync.WithExpiry(time.Duration(cfg.LockSeconds))) // want `TTL time.Duration\(cfg.LockSeconds\) reads cfg.LockSeconds, a count of seconds, as nanoseconds`
}

// redsync: a Duration read back as a count of seconds (the fix passes
// the Duration itself).
func redsyncSeconds(rs *redsync.Redsync, cfg config) *redsync.Mutex {
	return rs.NewMutex("report", redsync.WithExpiry(time.Duration(cfg.LockTTL.Seconds()))) // want `reads cfg.LockTTL.Seconds\(\) \(a count of seconds\) as nanoseconds`
}

// redsync: a local Duration built from an untyped constant.
func redsyncVar(rs *redsync.Redsync) *redsync.Mutex {
	expiry := time.Duration(lockTTL)
	return rs.NewMutex("report", redsync.WithExpiry(expiry)) // want `TTL expiry is 30ns`
}

// bsm/redislock: Obtain's ttl argument.
func obtain(ctx context.Context, locker *redislock.Client) error {
	lock, err := locker.Obtain(ctx, "lock:report", 30, nil) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return work(ctx)
}

// bsm/redislock: the package-level Obtain.
func obtainFunc(ctx context.Context, rdb *redis.Client) (*redislock.Lock, error) {
	return redislock.Obtain(ctx, rdb, "lock:report", lockTTL, nil) // want `TTL lockTTL is 30ns`
}

// bsm/redislock: Refresh's ttl.
func refresh(ctx context.Context, lock *redislock.Lock) error {
	return lock.Refresh(ctx, 30, nil) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock library's TTL is at most 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// bsm/redislock: below the millisecond the library truncates to.
func obtainMicros(ctx context.Context, locker *redislock.Client) (*redislock.Lock, error) {
	return locker.Obtain(ctx, "lock:report", 500*time.Microsecond, nil) // want `TTL 500 \* time\.Microsecond is 500µs, sent as 0 whole milliseconds: Redis rejects the SET, so the lock is never acquired; pass at least 1ms`
}

// rueidislock: KeyValidity in nanoseconds.
func locker() (rueidislock.Locker, error) {
	return rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption: rueidis.ClientOption{InitAddress: []string{"127.0.0.1:6379"}},
		KeyValidity:  30, // want `TTL 30 is 30ns`
	})
}

// rueidislock: the option built in a variable first.
func lockerVar() (rueidislock.Locker, error) {
	opt := rueidislock.LockerOption{
		ClientOption: rueidis.ClientOption{InitAddress: []string{"127.0.0.1:6379"}},
		KeyValidity:  lockTTL, // want `TTL lockTTL is 30ns`
	}
	return rueidislock.NewLocker(opt)
}

// --- silent ---

// The field is set again before NewLocker: the literal's value is not
// the one used, so it is not followed.
func lockerChanged() (rueidislock.Locker, error) {
	opt := rueidislock.LockerOption{
		ClientOption: rueidis.ClientOption{InitAddress: []string{"127.0.0.1:6379"}},
		KeyValidity:  30,
	}
	opt.KeyValidity = 30 * time.Second
	return rueidislock.NewLocker(opt)
}

// The unit is written.
func withUnits(ctx context.Context, rs *redsync.Redsync, locker *redislock.Client, lock *redislock.Lock, n int) error {
	_ = rs.NewMutex("a", redsync.WithExpiry(30*time.Second))
	_ = rs.NewMutex("b", redsync.WithExpiry(time.Duration(n)*time.Millisecond))
	if _, err := locker.Obtain(ctx, "lock:c", 30*time.Second, nil); err != nil {
		return err
	}
	return lock.Refresh(ctx, time.Duration(n)*time.Second, nil)
}

// A Duration from the configuration.
func fromConfig(ctx context.Context, rs *redsync.Redsync, locker *redislock.Client, cfg config) (rueidislock.Locker, error) {
	_ = rs.NewMutex("a", redsync.WithExpiry(cfg.LockTTL))
	if _, err := locker.Obtain(ctx, "lock:b", cfg.LockTTL, nil); err != nil {
		return nil, err
	}
	return rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption: rueidis.ClientOption{InitAddress: []string{"127.0.0.1:6379"}},
		KeyValidity:  cfg.LockTTL,
	})
}

// ExtendInterval and the retry options are not TTLs; redsync's Mutex
// default expiry is used when no option is given.
func otherDurations(rs *redsync.Redsync) (rueidislock.Locker, error) {
	_ = rs.NewMutex("a", redsync.WithRetryDelay(500*time.Microsecond), redsync.WithTries(3))
	_ = rs.NewMutex("b")
	return rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption:   rueidis.ClientOption{InitAddress: []string{"127.0.0.1:6379"}},
		KeyValidity:    time.Duration(lockTTL) * time.Second,
		ExtendInterval: time.Second,
	})
}
