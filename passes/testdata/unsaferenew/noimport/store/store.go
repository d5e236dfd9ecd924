// Package store holds the client; the package using it never names the
// client package.
package store

import (
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct {
	RDB   *redis.Client
	Key   string
	Token string
	TTL   time.Duration
}
