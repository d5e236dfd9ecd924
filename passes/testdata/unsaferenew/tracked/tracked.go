// Package tracked renews the locks it holds from a package-level
// registry: the acquire (or a helper it calls with the key) writes the
// key into a package-level map or slice, and a scheduler ranges over it
// and renews every key. A key read from such a range is the acquired key.
package tracked

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 10 * time.Second

func token() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

type control struct {
	ctx    context.Context
	cancel context.CancelFunc
}

type registry struct {
	mu        sync.Mutex
	listeners map[string]*control
}

var states = &registry{listeners: map[string]*control{}}

type Locker struct{ client redis.UniversalClient }

// --- reported ---

func (l *Locker) TryLock(ctx context.Context, key string) bool {
	ok, err := l.client.SetNX(ctx, key, token(), lockTTL).Result()
	if err == nil && ok {
		l.track(key)
	}
	return ok
}

func (l *Locker) track(key string) {
	ctx, cancel := context.WithCancel(context.Background())
	states.mu.Lock()
	states.listeners[key] = &control{ctx: ctx, cancel: cancel}
	states.mu.Unlock()
}

type keyAndCtrl struct {
	key  string
	ctrl *control
}

// The map, ranged into a local slice of structs, each key renewed by an
// EXPIRE queued in a pipeline: three hops from the map to the EXPIRE.
func (l *Locker) startRenewal() {
	round := func() {
		states.mu.Lock()
		pending := make([]*keyAndCtrl, 0, len(states.listeners))
		for key, ctrl := range states.listeners {
			pending = append(pending, &keyAndCtrl{key: key, ctrl: ctrl})
		}
		states.mu.Unlock()
		ctx := context.Background()
		l.client.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			for i := range pending {
				if pending[i].ctrl.ctx.Err() == nil {
					pipe.Expire(ctx, pending[i].key, lockTTL) // want `Expire renews lock pending\[i\]\.key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script \(no fix: queued in a pipeline\)`
				}
			}
			return nil
		})
	}
	go func() {
		for range time.Tick(time.Second) {
			round()
		}
	}()
}

// A package-level slice the acquire appends its key to, renewed by a
// goroutine that ranges over it.
var (
	heldMu sync.Mutex
	held   []string
)

func Acquire(ctx context.Context, rdb *redis.Client, name string) bool {
	key := "lock:" + name
	if !rdb.SetNX(ctx, key, token(), lockTTL).Val() {
		return false
	}
	heldMu.Lock()
	held = append(held, key)
	heldMu.Unlock()
	return true
}

func keepAlive(ctx context.Context, rdb *redis.Client) {
	for range time.Tick(time.Second) {
		heldMu.Lock()
		for _, k := range held {
			rdb.Expire(ctx, k, lockTTL) // want `Expire renews lock k in a loop without checking the token`
		}
		heldMu.Unlock()
	}
}

// --- silent ---

// Cache keys tracked the same way, written by a plain SET: no lock.
var cached = map[string]bool{}

func Fill(ctx context.Context, rdb *redis.Client, id, v string) {
	key := "cache:" + id
	rdb.Set(ctx, key, v, time.Minute)
	remember(key)
}

func remember(key string) { cached[key] = true }

func touchCache(ctx context.Context, rdb *redis.Client) {
	for range time.Tick(time.Minute) {
		for key := range cached {
			rdb.Expire(ctx, key, time.Minute)
		}
	}
}

// Locks tracked in a map, renewed by compare-and-pexpire: checked.
var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

var tokens = map[string]string{}

func Take(ctx context.Context, rdb *redis.Client, key string) bool {
	tok := token()
	if !rdb.SetNX(ctx, key, tok, lockTTL).Val() {
		return false
	}
	tokens[key] = tok
	return true
}

func renewAll(ctx context.Context, rdb *redis.Client) {
	for range time.Tick(time.Second) {
		for key, tok := range tokens {
			renewScript.Run(ctx, rdb, []string{key}, tok, lockTTL.Milliseconds())
		}
	}
}
