package memcache

import (
	"bytes"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

func ops(mc *memcache.Client, key, tok string, ttl time.Duration, val []byte) {
	mc.Add(&memcache.Item{Key: key, Value: []byte(tok)})                            // want `gomemcache acquire Add key=key value=tok nottl$`
	mc.Add(&memcache.Item{Key: key, Value: val, Expiration: 0})                     // want `gomemcache acquire Add key=key value=val ttl=0/seconds nottl$`
	mc.Add(&memcache.Item{Key: key, Value: []byte(tok), Expiration: 30})            // want `gomemcache acquire Add key=key value=tok ttl=30/seconds$`
	mc.Add(&memcache.Item{Key: key, Expiration: int32(ttl / time.Second)})          // want `gomemcache acquire Add key=key ttl=int32\(ttl / time.Second\)/seconds$`
	mc.Add(&memcache.Item{Key: key, Expiration: int32(time.Now().Add(ttl).Unix())}) // want `gomemcache acquire Add key=key ttl=int32\(time.Now\(\).Add\(ttl\).Unix\(\)\)/time$`
	mc.Set(&memcache.Item{Key: key, Value: []byte(tok), Expiration: 30})            // want `gomemcache write Set key=key value=tok ttl=30/seconds$`
	mc.Set(&memcache.Item{Key: key, Value: []byte(tok)})                            // want `gomemcache write Set key=key value=tok$`
	mc.Touch(key, 30)                                                               // want `gomemcache expire Touch key=key ttl=30/seconds$`
	mc.Touch(key, 0)                                                                // no expiry from now on: not an expire
	mc.Delete(key)                                                                  // want `gomemcache delete Delete key=key$`
	mc.Get(key)                                                                     // want `gomemcache get Get key=key$`
	mc.Increment(key, 1)                                                            // not an op lockvet models
}

// Items through a local variable.
func variables(mc *memcache.Client, key, tok string, item *memcache.Item, exp int32) {
	it := &memcache.Item{Key: key, Value: []byte(tok)}
	mc.Add(it) // want `gomemcache acquire Add key=key value=tok nottl$`

	it2 := &memcache.Item{Key: key, Value: []byte(tok)}
	it2.Expiration = exp
	mc.Add(it2) // want `gomemcache acquire Add key=key value=tok ttl=exp/seconds$`

	var it3 memcache.Item
	it3.Key = key
	mc.Add(&it3) // want `gomemcache acquire Add key=$`

	mc.Add(item) // want `gomemcache acquire Add key=$`

	it4 := memcache.Item{Key: key}
	if exp > 0 {
		it4.Expiration = exp // conditional: unknown
	}
	mc.Add(&it4) // want `gomemcache acquire Add key=key$`
}

// The owner-checked release: Get, compare, CompareAndSwap with a negative
// Expiration; and the owner-checked renewal.
func release(mc *memcache.Client, key, tok string) error {
	got, err := mc.Get(key) // want `gomemcache get Get key=key$`
	if err != nil {
		return err
	}
	if !bytes.Equal(got.Value, []byte(tok)) {
		return nil
	}
	got.Expiration = -1
	return mc.CompareAndSwap(got) // want `gomemcache comparedelete CompareAndSwap key=key$`
}

func renew(mc *memcache.Client, key, tok string) error {
	got, err := mc.Get(key) // want `gomemcache get Get key=key$`
	if err != nil || string(got.Value) != tok {
		return err
	}
	got.Expiration = 30
	return mc.CompareAndSwap(got) // want `gomemcache write CompareAndSwap key=key ttl=30/seconds$`
}
