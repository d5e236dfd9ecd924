// Package scheduler runs periodic jobs on a fleet of workers. A Redis lock
// per job makes sure only one worker runs a job at a time.
package scheduler

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/lockvet-example/internal/lock"
)

// Job is a unit of periodic work.
type Job struct {
	Name  string
	Every time.Duration
	Run   func(context.Context) error
}

// Scheduler runs jobs.
type Scheduler struct {
	rdb     *redis.Client
	lockTTL time.Duration
	log     *slog.Logger
}

// New returns a Scheduler whose job locks last lockTTL.
func New(rdb *redis.Client, lockTTL time.Duration, log *slog.Logger) *Scheduler {
	return &Scheduler{rdb: rdb, lockTTL: lockTTL, log: log}
}

// RunOnce runs job unless another worker holds its lock.
func (s *Scheduler) RunOnce(ctx context.Context, job Job) error {
	token, ok, err := s.tryLock(ctx, job.Name)
	if err != nil {
		return err
	}
	if !ok {
		s.log.Info("job busy on another worker", "job", job.Name)
		return nil
	}
	defer func() {
		if err := lock.Release(context.WithoutCancel(ctx), s.rdb, lockKey(job.Name), token); err != nil && !errors.Is(err, lock.ErrNotHeld) {
			s.log.Warn("release job lock", "job", job.Name, "err", err)
		}
	}()
	return job.Run(ctx)
}

func lockKey(job string) string { return "lock:job:" + job }

// tryLock is the code from the incident: a worker was OOM-killed between
// the SETNX and the EXPIRE, the lock never expired and the job stopped
// running on every worker for two days.
func (s *Scheduler) tryLock(ctx context.Context, job string) (string, bool, error) {
	key := lockKey(job)
	token, err := lock.NewToken()
	if err != nil {
		return "", false, err
	}
	ok, err := s.rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil {
		return "", false, err
	}
	if ok {
		s.rdb.Expire(ctx, key, s.lockTTL) // LV101: a crash before this EXPIRE leaves the lock with no TTL
	}
	return token, ok, nil
}

// RunExclusive runs fn under the shared lock helper: SET NX with a TTL,
// released by the compare-and-delete script. Nothing to report.
func (s *Scheduler) RunExclusive(ctx context.Context, name string, fn func(context.Context) error) error {
	l, err := lock.Obtain(ctx, s.rdb, lockKey(name), s.lockTTL)
	if errors.Is(err, lock.ErrBusy) {
		return nil
	}
	if err != nil {
		return err
	}
	defer l.Release(context.WithoutCancel(ctx))
	return fn(ctx)
}
