package scheduler

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/lockvet-example/internal/lock"
)

// LeaseConfig comes from the service's YAML configuration.
type LeaseConfig struct {
	LeaseSeconds int `yaml:"lease_seconds"`
}

// ErrLeaseLost means another worker owns the lease now.
var ErrLeaseLost = errors.New("scheduler: lease lost")

var renewScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

// Lease is a worker's claim on a long-running job, renewed while it runs.
type Lease struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

// Leases hands out job leases.
type Leases struct {
	rdb *redis.Client
	cfg LeaseConfig
}

// NewLeases returns a lease manager.
func NewLeases(rdb *redis.Client, cfg LeaseConfig) *Leases {
	return &Leases{rdb: rdb, cfg: cfg}
}

// Acquire claims the lease for a job run.
func (m *Leases) Acquire(ctx context.Context, jobID string) (*Lease, error) {
	token, err := lock.NewToken()
	if err != nil {
		return nil, err
	}
	key := "lease:" + jobID
	ok, err := m.rdb.SetNX(ctx, key, token, time.Duration(m.cfg.LeaseSeconds)).Result() // LV104: time.Duration(n) is n nanoseconds, not seconds
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, lock.ErrBusy
	}
	return &Lease{rdb: m.rdb, key: key, token: token, ttl: time.Duration(m.cfg.LeaseSeconds) * time.Second}, nil
}

// Renew extends the lease if this worker still owns it.
func (l *Lease) Renew(ctx context.Context) error {
	n, err := renewScript.Run(ctx, l.rdb, []string{l.key}, l.token, l.ttl).Int64() // LV104: a time.Duration reaches Lua as nanoseconds; PEXPIRE wants milliseconds
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// Pause keeps the lease while an operator pauses the job.
func (l *Lease) Pause(ctx context.Context) error {
	return l.rdb.Expire(ctx, l.key, 0).Err() // LV104: EXPIRE with 0 deletes the key (PERSIST removes a TTL)
}

// Release gives the lease back if this worker still owns it.
func (l *Lease) Release(ctx context.Context) error {
	return lock.Release(ctx, l.rdb, l.key, l.token)
}
