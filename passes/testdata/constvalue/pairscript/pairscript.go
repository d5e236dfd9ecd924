// A Lock/Unlock pair whose Unlock already runs a compare-and-delete
// script, but compares with the constant every Lock writes: the fix makes
// the compare's argument the token Lock returns.
package pairscript

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type redisLock struct {
	rdb *redis.Client
}

func (r *redisLock) lock(ctx context.Context, name string, expire int) bool {
	return r.rdb.SetNX(ctx, r.name(name), 1, time.Duration(expire)*time.Second).Val() // want `lock r\.name\(name\) is acquired with the constant 1 and released`
}

func (r *redisLock) unlock(ctx context.Context, name string) bool {
	script := `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	else
		return false
	end`

	return r.rdb.Eval(ctx, script, []string{r.name(name)}, 1).Err() == nil // want `the owner check of lock r\.name\(name\) compares it with 1, a value every caller passes`
}

func (r *redisLock) name(name string) string {
	return fmt.Sprintf("im:lock:%s", name)
}

type service struct {
	lk *redisLock
}

func (s *service) invite(ctx context.Context, group string) error {
	if !s.lk.lock(ctx, group, 20) {
		return errors.New("busy")
	}
	defer s.lk.unlock(ctx, group)
	return nil
}

// A caller that never unlocks (the lock expires): it keeps no token.
func (s *service) throttle(ctx context.Context, user string) error {
	if !s.lk.lock(ctx, user, 10) {
		return errors.New("too many requests")
	}
	return nil
}
