// An equivalent compare-and-pexpire script is already declared: the fix
// runs it instead of declaring another.
package reuse

import (
	"context"
	"time"

	rv9 "github.com/redis/go-redis/v9"
)

var extend = rv9.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`)

func heartbeat(ctx context.Context, rdb rv9.UniversalClient, key, token string, ttl time.Duration) {
	rdb.SetNX(ctx, key, token, ttl)
	for {
		time.Sleep(ttl / 3)
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}
