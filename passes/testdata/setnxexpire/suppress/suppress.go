package suppress

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func lineAbove(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		//lockvet:ignore LV101 -- migration script, runs once under an operator's eye
		rdb.Expire(ctx, key, time.Minute)
	}
}

func trailing(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		rdb.Expire(ctx, key, time.Minute) //lockvet:ignore setnxexpire -- same, by analyzer name
	}
}

func noReason(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		//lockvet:ignore LV101 // want `lockvet:ignore needs a reason`
		rdb.Expire(ctx, key, time.Minute) // want `Expire after SetNX`
	}
}

func otherRule(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		//lockvet:ignore LV201 -- names another check: does not hide this one
		rdb.Expire(ctx, key, time.Minute) // want `Expire after SetNX`
	}
}

//lockvet:ignore LV101 -- nothing here to suppress // want `matches no finding`
func unused(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Get(ctx, key)
}
