package scheduler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/lockvet-example/internal/lock"
)

const leaderKey = "scheduler:leader"

// Elector elects one scheduler instance as the leader that enqueues jobs.
type Elector struct {
	rdb  redis.UniversalClient
	id   string
	term time.Duration
}

// NewElector returns an Elector for this instance.
func NewElector(rdb redis.UniversalClient, term time.Duration) (*Elector, error) {
	id, err := lock.NewToken()
	if err != nil {
		return nil, err
	}
	return &Elector{rdb: rdb, id: id, term: term}, nil
}

// Campaign tries to become the leader for one term.
func (e *Elector) Campaign(ctx context.Context) (bool, error) {
	err := e.rdb.SetArgs(ctx, leaderKey, e.id, redis.SetArgs{Mode: "NX"}).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := e.rdb.PExpire(ctx, leaderKey, e.term).Err(); err != nil { // LV101: SET NX without a TTL, then PEXPIRE in a second round trip
		return false, fmt.Errorf("set leader term: %w", err)
	}
	return true, nil
}

// Resign gives up leadership if this instance still holds it.
func (e *Elector) Resign(ctx context.Context) error {
	return lock.Release(ctx, e.rdb, leaderKey, e.id)
}
