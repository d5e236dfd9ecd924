// memcached reads an expiration above 30 days as a Unix time: one
// computed from Unix() is a point in time on purpose, not a unit mistake.
package memcache

import (
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

// --- reported ---

// A time.Duration converted to int32 is a count of nanoseconds: 30s is
// 30000000000, which wraps around in the int32 Expiration.
func nanos(mc *memcache.Client, key string, token []byte, ttl time.Duration) {
	mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(ttl)}) // want `TTL int32\(ttl\) is a count of nanoseconds where Add takes seconds \(30s becomes 30000000000\); divide first: ttl / time\.Second`
}

type locker struct {
	mc  *memcache.Client
	ttl time.Duration
}

func (l *locker) refresh(key string) error {
	return l.mc.Touch(key, int32(l.ttl)) // want `TTL int32\(l\.ttl\) is a count of nanoseconds where Touch takes seconds \(30s becomes 30000000000\); divide first: l\.ttl / time\.Second`
}

// --- silent ---

// A local variable may hold a bare count: not followed.
func count(mc *memcache.Client, key string) {
	n := time.Duration(30)
	mc.Touch(key, int32(n))
}

func absolute(mc *memcache.Client, key string, token []byte, ttl time.Duration) {
	mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(time.Now().Add(ttl).Unix())})
	exp := int32(time.Now().Unix() + 30)
	mc.Touch(key, exp)
}

func relative(mc *memcache.Client, key string, token []byte, ttl time.Duration) {
	mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(ttl / time.Second)})
	mc.Touch(key, 30)
}
