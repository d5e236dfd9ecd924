// Package billing settles each customer's open invoices once a night. Its
// customer lock is older than internal/lock and was written by hand; it has
// the ownership bugs lockvet reports.
package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrBusy means another worker is settling the customer.
var ErrBusy = errors.New("billing: customer is being settled")

// customerLock serializes settlement per customer.
type customerLock struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

func newCustomerLock(rdb *redis.Client, customer string, ttl time.Duration) *customerLock {
	return &customerLock{rdb: rdb, key: fmt.Sprintf("lock:billing:%s", customer), ttl: ttl}
}

// acquire takes the lock. Every worker writes the same value, so nobody can
// tell later whose lock it is.
func (l *customerLock) acquire(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, "locked", l.ttl).Result() // LV204: every holder writes "locked"
}

// refresh keeps the lock while a long settlement runs.
func (l *customerLock) refresh(ctx context.Context) error {
	return l.rdb.Expire(ctx, l.key, l.ttl).Err() // LV203: extends whoever holds the lock now
}

// release gives the lock up.
func (l *customerLock) release(ctx context.Context) error {
	return l.rdb.Del(ctx, l.key).Err() // LV201: deletes the lock even when another worker holds it
}

// Settle settles one customer under the lock, refreshing it while it works.
func Settle(ctx context.Context, rdb *redis.Client, customer string, settle func(context.Context) error) error {
	l := newCustomerLock(rdb, customer, 30*time.Second)
	ok, err := l.acquire(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer l.release(ctx)

	done := make(chan error, 1)
	go func() { done <- settle(ctx) }()
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			if err := l.refresh(ctx); err != nil {
				return err
			}
		}
	}
}

// SettleAll is the nightly run: one pass over every customer, guarded by a
// run-wide lock so that two cron hosts do not both start it.
func SettleAll(ctx context.Context, rdb *redis.Client, customers []string, token string, settle func(context.Context, string) error) error {
	const runKey = "lock:billing:nightly"
	if err := rdb.SetNX(ctx, runKey, token, 2*time.Hour).Err(); err != nil { // LV105: a busy lock is taken for acquired
		return err
	}
	for _, c := range customers {
		if err := Settle(ctx, rdb, c, func(ctx context.Context) error { return settle(ctx, c) }); err != nil && !errors.Is(err, ErrBusy) {
			return err
		}
	}
	if rdb.Get(ctx, runKey).Val() == token {
		rdb.Del(ctx, runKey) // LV202: another host can take the lock between the GET and the DEL
	}
	return nil
}
