// A cache interface whose rueidis implementation holds two lock pairs
// (a job flag and a recharge status), each set with "1" and deleted
// bare: each fix changes its two methods of the interface.
package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

const pushJobKey = "paopao-ce:push-to-search-job"

type RedisCache interface {
	SetPushJob(ctx context.Context) error
	DelPushJob(ctx context.Context) error
	SetRechargeStatus(ctx context.Context, tradeNo string) error
	DelRechargeStatus(ctx context.Context, tradeNo string) error
	Get(ctx context.Context, key string) (string, error)
}

type redisCache struct{ c rueidis.Client }

func (r *redisCache) SetPushJob(ctx context.Context) error {
	return r.c.Do(ctx, r.c.B().Set().Key(pushJobKey).Value("1").Nx().ExSeconds(3600).Build()).Error() // want `lock pushJobKey is acquired with the constant "1" and released`
}

func (r *redisCache) DelPushJob(ctx context.Context) error {
	return r.c.Do(ctx, r.c.B().Del().Key(pushJobKey).Build()).Error()
}

func (r *redisCache) SetRechargeStatus(ctx context.Context, tradeNo string) error {
	return r.c.Do(ctx, r.c.B().Set().Key("recharge:"+tradeNo).Value("1").Nx().ExSeconds(5).Build()).Error() // want `lock "recharge:" \+ tradeNo is acquired with the constant "1" and released`
}

func (r *redisCache) DelRechargeStatus(ctx context.Context, tradeNo string) error {
	return r.c.Do(ctx, r.c.B().Del().Key("recharge:"+tradeNo).Build()).Error()
}

func (r *redisCache) Get(ctx context.Context, key string) (string, error) {
	return r.c.Do(ctx, r.c.B().Get().Key(key).Build()).ToString()
}

func NewRedisCache(c rueidis.Client) RedisCache { return &redisCache{c: c} }

type server struct{ Redis RedisCache }

func (s *server) pushToSearch(ctx context.Context) {
	if err := s.Redis.SetPushJob(ctx); err == nil {
		defer s.Redis.DelPushJob(ctx)
		_, _ = s.Redis.Get(ctx, "index")
	}
}

func (s *server) recharge(ctx context.Context, tradeNo string) bool {
	if err := s.Redis.SetRechargeStatus(ctx, tradeNo); err == nil {
		defer s.Redis.DelRechargeStatus(ctx, tradeNo)
		return true
	}
	return false
}
