package memcache

import (
	"context"
	"errors"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

var errBusy = errors.New("busy")

func rebuild(ctx context.Context) error { return ctx.Err() }

// Expiration is in seconds: 30 s, and the work given 2 minutes.
func report(ctx context.Context, mc *memcache.Client, key string, token []byte) error {
	err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30})
	if err == memcache.ErrNotStored {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer mc.Delete(key)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // want `the work under lock key gets 2m0s \(context\.WithTimeout\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// --- silent ---

// Touched while the work runs.
func touched(mc *memcache.Client, key string, token []byte) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}); err != nil {
		return err
	}
	defer mc.Delete(key)
	go func() {
		for range time.Tick(10 * time.Second) {
			mc.Touch(key, 30)
		}
	}()
	time.Sleep(2 * time.Minute)
	return nil
}

// The work ends first.
func shorter(ctx context.Context, mc *memcache.Client, key string, token []byte) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 60}); err != nil {
		return err
	}
	defer mc.Delete(key)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return rebuild(ctx)
}
