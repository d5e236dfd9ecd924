package rueidis

import (
	"context"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsrueidis "github.com/go-redsync/redsync/v4/redis/rueidis"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	"github.com/redis/rueidis/rueidislock"
)

var ErrLocked = errors.New("locked")

// The incident's shape: SETNX, then EXPIRE only if acquired.
func setnxThenExpire(ctx context.Context, client rueidis.Client, key, token string) (bool, error) {
	ok, err := client.Do(ctx, client.B().Setnx().Key(key).Value(token).Build()).AsBool()
	if err != nil {
		return false, err
	}
	if ok {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX wrote key without a TTL`
	}
	return ok, nil
}

// SET NX without an expiry, then PEXPIRE whose error is checked.
func setNXThenPexpire(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Build()).Error()
	if rueidis.IsRedisNil(err) {
		return ErrLocked
	}
	if err != nil {
		return err
	}
	if err := client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(ttl.Milliseconds()).Build()).Error(); err != nil { // want `PEXPIRE after SET wrote key without a TTL: a crash in between leaves the key with no TTL; add \.PxMilliseconds\(ms\) to the SET`
		return err
	}
	return nil
}

// KEEPTTL on an absent key leaves it without a TTL too; multi-line chains.
func keepTTL(ctx context.Context, client rueidis.Client, key string) {
	err := client.Do(ctx, client.B().Set().
		Key(key).
		Value("x").
		Nx().
		Keepttl().
		Build()).Error()
	if err == nil {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(60).Build()) // want `EXPIRE after SET wrote key without a TTL`
	}
}

// The acquire is built in a variable: reported, but the chain is not
// rewritten.
func viaVariable(ctx context.Context, client rueidis.Client, key, token string) error {
	acquire := client.B().Setnx().Key(key).Value(token).Build()
	if ok, err := client.Do(ctx, acquire).AsBool(); err != nil || !ok {
		return err
	}
	return client.Do(ctx, client.B().Expire().Key(key).Seconds(10).Build()).Error() // want `EXPIRE after SETNX`
}

// GETSET takeover (old SETNX recipe): reported, no fix.
func getSet(ctx context.Context, client rueidis.Client, key, token string) {
	client.Do(ctx, client.B().Getset().Key(key).Value(token).Build())
	client.Do(ctx, client.B().Expire().Key(key).Seconds(10).Build()) // want `EXPIRE after GETSET, which clears the TTL of`
}

// On a dedicated connection.
func dedicated(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		ok, err := c.Do(ctx, c.B().Setnx().Key(key).Value(token).Build()).AsBool()
		if err != nil || !ok {
			return err
		}
		c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
		return nil
	})
}

// rueidiscompat is go-redis shaped (the go-redis adapter's ops).
func compat(ctx context.Context, client rueidis.Client, key, token string) {
	c := rueidiscompat.NewAdapter(client)
	if c.SetNX(ctx, key, token, 0).Val() {
		c.Expire(ctx, key, 30*time.Second) // want `Expire after SetNX wrote key without a TTL`
	}
}

// SETNX answers 1 or 0 and SET NX answers OK or nil, which AsBool turns
// into rueidis.Nil: the fix reads the error and clears the nil reply, so a
// held lock still reads as (false, nil).
func valueOnly(ctx context.Context, client rueidis.Client, key string) bool {
	ok, _ := client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).AsBool()
	if ok {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
	}
	return ok
}

func errOnly(ctx context.Context, client rueidis.Client, key string) error {
	var err error
	_, err = client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).AsBool()
	if err != nil {
		return err
	}
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
	return nil
}

func errorRead(ctx context.Context, client rueidis.Client, key string) error {
	err := client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).Error()
	if err != nil {
		return err
	}
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
	return nil
}

// An existing err is assigned, a new ok declared.
func reuseErr(ctx context.Context, client rueidis.Client, key string) (bool, error) {
	err := ctx.Err()
	if err != nil {
		return false, err
	}
	ok, err := client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).AsBool()
	if err != nil || !ok {
		return false, err
	}
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
	return true, nil
}

// The reply is discarded: nothing to keep.
func dropped(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build())
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
}

// Read in an if's init, or returned: reported, no fix (a held lock would
// come back as rueidis.Nil).
func inInit(ctx context.Context, client rueidis.Client, key string) error {
	if ok, err := client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).AsBool(); err != nil || !ok {
		return err
	}
	return client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()).Error() // want `EXPIRE after SETNX`
}

func asInt(ctx context.Context, client rueidis.Client, key string) (int64, error) {
	n, err := client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build()).AsInt64()
	if n == 1 {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE after SETNX`
	}
	return n, err
}

// --- silent ---

// SET NX with the TTL: correct.
func correct(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return ErrLocked
	}
	return err
}

// EXPIRE of another key.
func otherKey(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build())
	client.Do(ctx, client.B().Expire().Key(key+":meta").Seconds(30).Build())
}

// EXPIRE before the acquire, on no path after it.
func before(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build())
	client.Do(ctx, client.B().Setnx().Key(key).Value("t").Build())
}

// A command the chain of which cannot be seen.
func unknown(ctx context.Context, client rueidis.Client, key string, cmd rueidis.Completed) {
	client.Do(ctx, cmd)
	client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build())
}

// rueidislock takes and renews its locks itself.
func withLocker(ctx context.Context, locker rueidislock.Locker) error {
	ctx, cancel, err := locker.WithContext(ctx, "job")
	if err != nil {
		return err
	}
	defer cancel()
	<-ctx.Done()
	return nil
}

// redsync over rueidis.
func withRedsync(client rueidis.Client) error {
	rs := redsync.New(rsrueidis.NewPool(rueidiscompat.NewAdapter(client)))
	m := rs.NewMutex("job", redsync.WithExpiry(30*time.Second))
	if err := m.Lock(); err != nil {
		return err
	}
	_, err := m.Unlock()
	return err
}
