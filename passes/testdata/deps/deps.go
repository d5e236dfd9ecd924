// Package deps pins the client modules the check tests type-check against.
package deps

import (
	_ "github.com/bradfitz/gomemcache/memcache"
	_ "github.com/bsm/redislock"
	_ "github.com/go-redis/redis"
	_ "github.com/go-redis/redis/v7"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/go-redsync/redsync/v4"
	_ "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	_ "github.com/go-redsync/redsync/v4/redis/redigo"
	_ "github.com/go-redsync/redsync/v4/redis/rueidis"
	_ "github.com/gomodule/redigo/redis"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/redis/rueidis"
	_ "github.com/redis/rueidis/rueidiscompat"
	_ "github.com/redis/rueidis/rueidislock"
)
