package rueidis

import (
	"context"
	"errors"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

var errBusy = errors.New("lock busy")

var unlockScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func work(context.Context) error { return nil }

type Mutex struct {
	client rueidis.Client
	key    string
	token  string
}

// SETNX answers 1 or 0: only its error checked, busy is taken for acquired.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	if err := m.client.Do(ctx, m.client.B().Setnx().Key(m.key).Value(m.token).Build()).Error(); err != nil { // want `only the error of SETNX is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
		return false, err
	}
	return true, nil
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Exec(ctx, m.client, []string{m.key}, []string{m.token}).Error()
}

// SET NX: only rueidis.IsRedisNil handled, a timeout falls through as
// acquired.
func setNX(ctx context.Context, client rueidis.Client, key, token string) error {
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() // want `only the busy reply of SET \(rueidis.IsRedisNil\(err\)\) is handled`
	if rueidis.IsRedisNil(err) {
		return errBusy
	}
	defer unlockScript.Exec(ctx, client, []string{key}, []string{token})
	return work(ctx)
}

// The same with the sentinel.
func (m *Mutex) TryLockSet(ctx context.Context) (bool, error) {
	if err := m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().ExSeconds(30).Build()).Error(); err == rueidis.Nil { // want `only the busy reply of SET \(rueidis.Nil\)`
		return false, nil
	}
	return true, nil
}

// The reply is discarded before the critical section.
func discard(ctx context.Context, client rueidis.Client, key string) error {
	client.Do(ctx, client.B().Set().Key(key).Value("t").Nx().ExSeconds(30).Build()) // want `the reply of SET is discarded`
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return work(ctx)
}

// NonRedisError reports transport errors only: a held key is nil too.
func nonRedisError(ctx context.Context, client rueidis.Client, key string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value("t").Nx().ExSeconds(30).Build()).NonRedisError(); err != nil { // want `only the error of SET is checked`
		return err
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	return work(ctx)
}

// Fail-open: any error other than busy returns "acquired".
func tryLock(ctx context.Context, client rueidis.Client, key string) bool {
	err := client.Do(ctx, client.B().Set().Key(key).Value("t").Nx().ExSeconds(30).Build()).Error() // want `when SET fails, this path returns true \(acquired\)`
	if rueidis.IsRedisNil(err) {
		return false
	}
	if err != nil {
		return true
	}
	return true
}

// --- silent ---

// All three outcomes told apart.
func correct(ctx context.Context, client rueidis.Client, key, token string) (bool, error) {
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func correctSetNX(ctx context.Context, client rueidis.Client, key, token string) (bool, error) {
	ok, err := client.Do(ctx, client.B().Setnx().Key(key).Value(token).Build()).AsBool()
	if err != nil {
		return false, err
	}
	return ok, nil
}

// The status string: "OK" only when the key was set.
func status(ctx context.Context, client rueidis.Client, key, token string) bool {
	s, err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).ToString()
	if err != nil {
		return false
	}
	return s == "OK"
}

// rueidislock: the error is nil exactly when the lock is held.
func withLocker(ctx context.Context, locker rueidislock.Locker) error {
	ctx, cancel, err := locker.WithContext(ctx, "job")
	if err != nil {
		return err
	}
	defer cancel()
	return work(ctx)
}
