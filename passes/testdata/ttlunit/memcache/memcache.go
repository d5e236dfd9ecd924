// memcached reads an expiration above 30 days as a Unix time: one
// computed from Unix() is a point in time on purpose, not a unit mistake.
package memcache

import (
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

// --- silent ---

func absolute(mc *memcache.Client, key string, token []byte, ttl time.Duration) {
	mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(time.Now().Add(ttl).Unix())})
	exp := int32(time.Now().Unix() + 30)
	mc.Touch(key, exp)
}

func relative(mc *memcache.Client, key string, token []byte, ttl time.Duration) {
	mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(ttl / time.Second)})
	mc.Touch(key, 30)
}
