// Package token: locks whose names say nothing. A random token written
// with NX and a TTL is a lock whatever the function is called.
package token

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log"
	mrand "math/rand/v2"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// Returns true on a Redis error: in an outage every caller runs the job.
func TryRunExclusive(ctx context.Context, rdb *redis.Client, name string) bool {
	ok, err := rdb.SetNX(ctx, "job:"+name, uuid.NewString(), ttl).Result() // want `when SetNX fails, this path returns true \(acquired\): in an outage every caller takes the lock; return false with the error`
	if err != nil {
		log.Print(err)
		return true
	}
	return ok
}

// The token in a variable, drawn from crypto/rand.
func TryJob(ctx context.Context, rdb *redis.Client, id string) (bool, error) {
	token := rand.Text()
	ok, err := rdb.SetNX(ctx, "job:"+id, token, ttl).Result() // want `when SetNX fails, this path returns true`
	if err != nil {
		return true, nil
	}
	return ok, nil
}

// The bool dropped.
func StartSync(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.SetNX(ctx, "sync:"+id, uuid.New().String(), ttl).Err() // want `only the error of SetNX is checked: a held lock is false with a nil error`
}

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// The token from a helper of the package.
func Claim(ctx context.Context, rdb *redis.Client, id string) bool {
	ok, err := rdb.SetNX(ctx, "claim:"+id, newToken(), ttl).Result() // want `when SetNX fails, this path returns true`
	if err != nil {
		return true
	}
	return ok
}

// The reply discarded.
func Kick(ctx context.Context, rdb *redis.Client, id string) {
	rdb.SetNX(ctx, "kick:"+id, uuid.NewString(), ttl) // want `the reply of SetNX is discarded`
}

// --- silent ---

// A per-request idempotency key: its value is no token, it is never
// released; failing open on purpose.
func FirstSeen(ctx context.Context, rdb *redis.Client, requestID string) bool {
	first, err := rdb.SetNX(ctx, "idem:"+requestID, 1, 24*time.Hour).Result()
	if err != nil {
		return true
	}
	return first
}

// A dedupe key holding the request ID.
func Dedupe(ctx context.Context, rdb *redis.Client, msgID string) bool {
	first, err := rdb.SetNX(ctx, "dedupe:"+msgID, msgID, time.Hour).Result()
	if err != nil {
		return true
	}
	return first
}

// A rate limit by INCR.
func Allow(ctx context.Context, rdb *redis.Client, user string) bool {
	n, err := rdb.Incr(ctx, "rate:"+user).Result()
	if err != nil {
		return true
	}
	if n == 1 {
		rdb.Expire(ctx, "rate:"+user, time.Minute)
	}
	return n <= 100
}

// A random value with no TTL: a record written once, not a lease.
func Register(ctx context.Context, rdb *redis.Client, name string) bool {
	ok, err := rdb.SetNX(ctx, "id:"+name, uuid.NewString(), 0).Result()
	if err != nil {
		return true
	}
	return ok
}

// Correct: fails closed.
func TryRunStrict(ctx context.Context, rdb *redis.Client, name string) (bool, error) {
	ok, err := rdb.SetNX(ctx, "strict:"+name, uuid.NewString(), ttl).Result()
	if err != nil {
		return false, err
	}
	return ok, nil
}

// A one-time code stored if none is pending, then sent: a secret, not a
// lock's token (it is handed to something other than Redis).
func SendCode(ctx context.Context, rdb *redis.Client, phone string, send func(string) error) bool {
	code := fmt.Sprintf("%06d", mrand.IntN(1000000))
	ok, err := rdb.SetNX(ctx, "otp:"+phone, code, 5*time.Minute).Result()
	if err != nil {
		return true
	}
	if ok {
		_ = send(code)
	}
	return ok
}

// A generated ID stored if absent and read back: whichever writer won,
// everyone uses the stored one.
func DeviceNonce(ctx context.Context, rdb *redis.Client, device string) (string, error) {
	rdb.SetNX(ctx, "nonce:"+device, uuid.NewString(), 10*time.Minute)
	return rdb.Get(ctx, "nonce:"+device).Result()
}

// A session token returned to the caller.
func NewSession(ctx context.Context, rdb *redis.Client, user string) (string, bool) {
	sid := rand.Text()
	ok, err := rdb.SetNX(ctx, "session:"+user, sid, time.Hour).Result()
	if err != nil {
		return sid, true
	}
	return sid, ok
}

// A per-process ID (drawn once) written as a heartbeat if absent.
var instanceID = uuid.NewString()

func Heartbeat(ctx context.Context, rdb *redis.Client) bool {
	ok, err := rdb.SetNX(ctx, "alive:"+instanceID, instanceID, time.Minute).Result()
	if err != nil {
		return true
	}
	return ok
}

// A buffer never filled is no token.
func Zeroes(ctx context.Context, rdb *redis.Client, id string) bool {
	b := make([]byte, 16)
	ok, err := rdb.SetNX(ctx, "zero:"+id, hex.EncodeToString(b), ttl).Result()
	if err != nil {
		return true
	}
	return ok
}
