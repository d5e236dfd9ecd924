// Lock helper pairs that implement an interface of the module: the fix
// changes the interface, every implementation and every caller (the
// module view of the lockvet command; here the package is the module).
package goredis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Locker is what the service asks of its store.
type Locker interface {
	TryLock(ctx context.Context, id string, ttl time.Duration) (bool, error)
	Unlock(ctx context.Context, id string) error
}

type store struct{ rdb *redis.Client }

var _ Locker = (*store)(nil)

func (s *store) TryLock(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	return s.rdb.SetNX(ctx, "lock:"+id, 1, ttl).Result() // want `lock "lock:" \+ id is acquired with the constant 1 and released`
}

func (s *store) Unlock(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, "lock:"+id).Err()
}

// A fake that keeps its locks in memory: it writes no value, so its
// TryLock returns an empty token and its Unlock ignores the one it gets.
type memLocker struct{ held map[string]bool }

func (m *memLocker) TryLock(_ context.Context, id string, _ time.Duration) (bool, error) {
	if m.held[id] {
		return false, nil
	}
	m.held[id] = true
	return true, nil
}

func (m *memLocker) Unlock(_ context.Context, id string) error {
	delete(m.held, id)
	return nil
}

// The service holds the interface; its calls keep the token.
type service struct{ locks Locker }

func (s *service) charge(ctx context.Context, account string) error {
	ok, err := s.locks.TryLock(ctx, account, 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	defer s.locks.Unlock(ctx, account)
	return nil
}

// A call through the store itself, released in an if.
func refund(ctx context.Context, st *store, account string) error {
	if ok, err := st.TryLock(ctx, account, time.Second); err == nil && ok {
		return st.Unlock(ctx, account)
	}
	return nil
}

// --- withheld ---

// A release passed on as a value: the fix cannot know which token it
// will need.
type Jobs interface {
	AcquireJob(ctx context.Context, id string) error
	ReleaseJob(ctx context.Context, id string) error
}

type jobStore struct{ rdb *redis.Client }

func (j *jobStore) AcquireJob(ctx context.Context, id string) error {
	return j.rdb.SetNX(ctx, "job:"+id, "1", time.Minute).Err() // want `\(no fix: ReleaseJob is used as a value\)$`
}

func (j *jobStore) ReleaseJob(ctx context.Context, id string) error {
	return j.rdb.Del(ctx, "job:"+id).Err()
}

func runJob(ctx context.Context, jobs Jobs, id string, cleanups *[]func(context.Context, string) error) error {
	if err := jobs.AcquireJob(ctx, id); err != nil {
		return err
	}
	*cleanups = append(*cleanups, jobs.ReleaseJob)
	return nil
}

var _ Jobs = (*jobStore)(nil)

// Another implementation that uses Redis too: its own finding is its
// fix, and the two cannot be made at once.
type Seats interface {
	HoldSeat(ctx context.Context, seat string) (bool, error)
	FreeSeat(ctx context.Context, seat string) error
}

type seatStore struct{ rdb *redis.Client }

func (s *seatStore) HoldSeat(ctx context.Context, seat string) (bool, error) {
	return s.rdb.SetNX(ctx, "seat:"+seat, 1, time.Minute).Result() // want `\(no fix: clusterSeats.HoldSeat, another implementation, uses Redis too\)$`
}

func (s *seatStore) FreeSeat(ctx context.Context, seat string) error {
	return s.rdb.Del(ctx, "seat:"+seat).Err()
}

type clusterSeats struct{ rdb *redis.ClusterClient }

func (c *clusterSeats) HoldSeat(ctx context.Context, seat string) (bool, error) {
	return c.rdb.SetNX(ctx, "{seat}:"+seat, 1, time.Minute).Result() // want `\(no fix: seatStore.HoldSeat, another implementation, uses Redis too\)$`
}

func (c *clusterSeats) FreeSeat(ctx context.Context, seat string) error {
	return c.rdb.Del(ctx, "{seat}:"+seat).Err()
}

var _, _ Seats = (*seatStore)(nil), (*clusterSeats)(nil)
