// Package locklibs: lock libraries are correct inside, but an acquire
// whose error is dropped runs the critical section without the lock.
package locklibs

import (
	"context"
	"errors"
	"log"
	"sync"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis/rueidislock"
)

const ttl = 30 * time.Second

var errBusy = errors.New("busy")

func work(context.Context) error { return nil }

// --- bugs ---

// redsync: Lock as a bare statement.
func bareLock(ctx context.Context, m *redsync.Mutex) error {
	m.Lock() // want `the error of Lock is discarded, and it is the only sign the lock was not taken; stop when it is not nil`
	defer m.Unlock()
	return work(ctx)
}

// redsync: the error assigned to the blank identifier.
func blankLockContext(ctx context.Context, rdb *redis.Client) error {
	m := redsync.New(goredis.NewPool(rdb)).NewMutex("report")
	_ = m.LockContext(ctx) // want `the error of LockContext is discarded`
	defer m.UnlockContext(ctx)
	return work(ctx)
}

// redsync: TryLock and TryLockContext dropped.
func tryLocks(ctx context.Context, m *redsync.Mutex) {
	m.TryLock()               // want `the error of TryLock is discarded`
	_ = m.TryLockContext(ctx) // want `the error of TryLockContext is discarded`
	_ = work(ctx)
	m.Unlock()
}

// bsm/redislock: the lock kept, its error dropped.
func obtainIgnored(ctx context.Context, locker *redislock.Client) error {
	lock, _ := locker.Obtain(ctx, "lock:report", ttl, nil) // want `the error of Obtain is discarded`
	defer lock.Release(ctx)
	return work(ctx)
}

// bsm/redislock: the package-level Obtain.
func obtainFunc(ctx context.Context, rdb *redis.Client) error {
	var lock, _ = redislock.Obtain(ctx, rdb, "lock:report", ttl, nil) // want `the error of Obtain is discarded`
	defer lock.Release(ctx)
	return work(ctx)
}

// rueidislock: the context kept, the error dropped.
func withContextIgnored(ctx context.Context, locker rueidislock.Locker) error {
	lctx, cancel, _ := locker.WithContext(ctx, "report") // want `the error of WithContext is discarded`
	defer cancel()
	return work(lctx)
}

// rueidislock: TryWithContext as a statement.
func tryWithContextStmt(ctx context.Context, locker rueidislock.Locker) {
	locker.TryWithContext(ctx, "report") // want `the error of TryWithContext is discarded`
	_ = work(ctx)
}

// A lock wrapper with no results: nothing to report the failure with,
// so no fix.
type LockService struct{ mux *redsync.Mutex }

func (l *LockService) Lock(ctx context.Context) {
	l.mux.LockContext(ctx) // want `the error of LockContext is discarded, and it is the only sign the lock was not taken; stop when it is not nil \(no fix: Lock returns nothing to report the failure with\)`
}

func (l *LockService) Unlock(ctx context.Context) { l.mux.UnlockContext(ctx) }

// A wrapper that says whether it took the lock, and why not.
func (l *LockService) TryLock(ctx context.Context) (bool, error) {
	l.mux.TryLockContext(ctx) // want `the error of TryLockContext is discarded`
	return true, nil
}

// One that answers whether the lock is held by another.
func (l *LockService) IsLocked() bool {
	_ = l.mux.TryLock() // want `the error of TryLock is discarded`
	return false
}

// A result whose zero value needs the type's name: no fix.
type handle struct{ n int }

func lockHandle(m *redsync.Mutex) (handle, error) {
	m.Lock() // want `the error of Lock is discarded`
	return handle{1}, nil
}

// A bool result nothing says the sense of: no fix.
func step(m *redsync.Mutex) (bool, error) {
	m.Lock() // want `the error of Lock is discarded, and it is the only sign the lock was not taken; stop when it is not nil \(no fix: what the bool result of step answers is not clear\)`
	defer m.Unlock()
	return work(context.Background()) == nil, nil
}

// The error is logged and the function reports "acquired" anyway.
func tryAcquire(m *redsync.Mutex) bool {
	if err := m.TryLock(); err != nil { // want `when TryLock fails, this path returns true \(acquired\)`
		log.Print(err)
	}
	return true
}

// --- silent ---

// The error is checked.
func checked(ctx context.Context, m *redsync.Mutex) error {
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return work(ctx)
}

// TryLock's result is checked.
func tryChecked(m *redsync.Mutex) bool {
	if err := m.TryLock(); err != nil {
		return false
	}
	return true
}

// TryLock's error tested for the busy error and then for any error.
func tryBusyThenAny(m *redsync.Mutex) (bool, error) {
	err := m.TryLock()
	if errors.Is(err, redsync.ErrFailed) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

// The error is passed on.
func passedOn(ctx context.Context, m *redsync.Mutex) error {
	return m.LockContext(ctx)
}

// redislock: busy and failed handled.
func obtainChecked(ctx context.Context, locker *redislock.Client) error {
	lock, err := locker.Obtain(ctx, "lock:report", ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return work(ctx)
}

// redislock: the lock, nil unless obtained, is tested instead of the error.
func obtainNilTested(ctx context.Context, locker *redislock.Client) error {
	lock, _ := locker.Obtain(ctx, "lock:report", ttl, nil)
	if lock == nil {
		return errBusy
	}
	defer lock.Release(ctx)
	return work(ctx)
}

// rueidislock: the error is checked.
func withContextChecked(ctx context.Context, locker rueidislock.Locker) error {
	lctx, cancel, err := locker.WithContext(ctx, "report")
	if err != nil {
		return err
	}
	defer cancel()
	return work(lctx)
}

// A sync.Mutex is not a lock library's acquire.
func localMutex(mu *sync.Mutex) {
	mu.Lock()
	defer mu.Unlock()
}

// The library's own non-acquire methods.
func extend(m *redsync.Mutex) {
	m.Extend()
	m.Unlock()
}
