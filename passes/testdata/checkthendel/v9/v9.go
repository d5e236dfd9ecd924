package v9

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrNotOwner = errors.New("lock not held")

// --- reported ---

// The incident's shape: GET, compare, DEL.
func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

// Operands the other way round; the DEL's error checked inside.
func unlockErr(ctx context.Context, rdb redis.Cmdable, jobID int, token string) error {
	if token == rdb.Get(ctx, fmt.Sprintf("lock:job:%d", jobID)).Val() {
		if err := rdb.Del(ctx, fmt.Sprintf("lock:job:%d", jobID)).Err(); err != nil { // want `Del of fmt\.Sprintf\("lock:job:%d", jobID\) after a separate GET compare can delete another holder's lock; compare and delete in one step`
			return err
		}
	}
	return nil
}

// The value in a variable, an early return when it differs: reported, no
// fix.
func unlockVar(ctx context.Context, rdb *redis.ClusterClient, key, token string) error {
	v, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if v != token {
		return ErrNotOwner
	}
	return rdb.Del(ctx, key).Err() // want `Del of key after a separate`
}

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, 10*time.Second).Result()
}

// Fields, a local holding the value, Unlink.
func (m *Mutex) Unlock(ctx context.Context) {
	v := m.rdb.Get(ctx, m.key).Val()
	if v == m.token {
		m.rdb.Unlink(ctx, m.key) // want `Unlink of m\.key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

// The GET in the if's init, and a second condition.
func unlockInit(ctx context.Context, rdb *redis.Client, key, token string) bool {
	if v, err := rdb.Get(ctx, key).Result(); err == nil && v == token {
		return rdb.Del(ctx, key).Val() == 1 // want `Del of key after a separate`
	}
	return false
}

// The DEL in the else branch of a != comparison.
func unlockElse(ctx context.Context, rdb *redis.Client, key, token string) error {
	if rdb.Get(ctx, key).Val() != token {
		return ErrNotOwner
	} else {
		rdb.Del(ctx, key) // want `Del of key after a separate`
	}
	return nil
}

// Inside Watch, but the DEL is sent directly, not in the transaction:
// WATCH only makes EXEC fail, so nothing guards it. The key is a lock key
// because its shape (the field j.key) is acquired by start; no name says
// so.
type job struct {
	rdb   *redis.Client
	key   string
	token string
}

func (j *job) start(ctx context.Context) bool {
	return j.rdb.SetNX(ctx, j.key, j.token, time.Minute).Val()
}

func (j *job) finish(ctx context.Context) error {
	v, err := j.rdb.Get(ctx, j.key).Result()
	if err != nil || v != j.token {
		return err
	}
	return j.rdb.Del(ctx, j.key).Err() // want `Del of j\.key after a separate GET compare can delete another holder's lock; compare and delete in one step`
}

func watchedButDirect(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return ErrNotOwner
	}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() == token {
			tx.Del(ctx, key) // want `Del of key after a separate`
		}
		return nil
	}, key)
}

// A constant value compared, on a key acquired as a lock: no fix; the
// value must become a token first.
func flagLock(ctx context.Context, rdb *redis.Client) {
	if !rdb.SetNX(ctx, "lock:nightly", "1", time.Hour).Val() {
		return
	}
	if rdb.Get(ctx, "lock:nightly").Val() == "1" {
		rdb.Del(ctx, "lock:nightly") // want `Del of "lock:nightly" after a separate GET compare can delete another holder's lock; compare and delete in one step; "1" is shared by every holder \(LV204\)`
	}
}

// --- silent ---

// WATCH, GET, then DEL in MULTI/EXEC.
func watched(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if v != token {
			return ErrNotOwner
		}
		_, err = tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}

// A compare-and-delete script.
func scripted(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`, []string{key}, token)
}

// A feature flag compared with a constant, not a lock.
func flag(ctx context.Context, rdb *redis.Client) {
	if rdb.Get(ctx, "feature:beta").Val() == "off" {
		rdb.Del(ctx, "feature:beta")
	}
}

// Existence, not ownership.
func clear(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.Get(ctx, key).Val() != "" {
		rdb.Del(ctx, key)
	}
}

// The GET reads another key.
func otherKey(ctx context.Context, rdb *redis.Client, key, owner, token string) {
	if rdb.Get(ctx, owner).Val() == token {
		rdb.Del(ctx, key)
	}
}

// The value changes between the GET and the comparison.
func reassigned(ctx context.Context, rdb *redis.Client, key, token string) {
	v := rdb.Get(ctx, key).Val()
	v = token
	if v == token {
		rdb.Del(ctx, key)
	}
}

// A one-time SMS code: read, compared with what the user typed, deleted.
// Nothing acquires the key with NX and nothing names it a lock: not a
// lock, whatever the shape.
func VerifySMSCode(ctx context.Context, rdb *redis.Client, phone, input string) bool {
	key := "sms:code:" + phone
	code, err := rdb.Get(ctx, key).Result()
	if err != nil || code != input {
		return false
	}
	rdb.Del(ctx, key)
	return true
}

// An e-mail confirmation token, compared in the if, on a field key.
type Confirmer struct {
	rdb    redis.UniversalClient
	prefix string
}

func (c *Confirmer) Confirm(ctx context.Context, email, token string) bool {
	if c.rdb.Get(ctx, c.prefix+email).Val() == token {
		c.rdb.Del(ctx, c.prefix+email)
		return true
	}
	return false
}
