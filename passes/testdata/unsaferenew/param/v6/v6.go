package v6

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis"
)

const (
	lockTTL  = 180
	lockPref = "lock:account_id:"
)

type Cache struct {
	Red *redis.Client
}

var ErrBusy = errors.New("busy")

// The lock's value is the caller's owner, a parameter; the watchdog
// started for the same account renews the same key, and its own
// parameter of that name holds what the acquire wrote. (A value that is
// a part of the key, the account id itself, is no token: keypartpair.)
func (r *Cache) LockAccount(accountID, owner string) error {
	ok, err := r.Red.SetNX(lockPref+accountID, owner, time.Second*lockTTL).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

func (r *Cache) UnlockAccount(accountID string) error {
	return r.Red.Del(lockPref + accountID).Err()
}

func (r *Cache) Watchdog(ctx context.Context, accountID, owner string) {
	ticker := time.NewTicker(10 * time.Second)
	go func() {
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				ok, err := r.Red.Expire(lockPref+accountID, time.Second*lockTTL).Result() // want `Expire renews lock lockPref \+ accountID in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
				if err != nil || !ok {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}

// --- no fix, and the message says why ---

// No parameter of that name: the owner is not at hand.
func (r *Cache) WatchdogOther(ctx context.Context, id string) {
	for range time.Tick(time.Second) {
		r.Red.Expire(lockPref+id, time.Second*lockTTL) // want `in a loop without checking the token.*\(no fix: the acquire's value owner is not at hand here\)`
	}
}
