package memcache

import (
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

// Expiration counts seconds: a count of milliseconds keeps the lock 1000
// times longer.
func msExpiration(mc *memcache.Client, key string, token []byte, ttl time.Duration) error {
	return mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(ttl.Milliseconds())}) // want `TTL int32\(ttl\.Milliseconds\(\)\) is a count of milliseconds where Add takes seconds: the key lives 1000 times longer; pass int64\(ttl / time\.Second\)`
}

// --- silent ---

func secExpiration(mc *memcache.Client, key string, token []byte, ttl time.Duration) error {
	return mc.Add(&memcache.Item{Key: key, Value: token, Expiration: int32(ttl / time.Second)})
}
