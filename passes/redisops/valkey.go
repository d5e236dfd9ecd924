package redisops

// valkeyNative knows github.com/valkey-io/valkey-go: rueidis under
// another module path, with the same command builders, Do/DoCache/
// DoMulti, Lua scripts and dedicated connections; its package is valkey,
// its nil reply valkey.Nil and its predicate IsValkeyNil. Its commands are
// rueidis' and read from the same command table, so the adapter is one
// registration. (valkeycompat, its go-redis-shaped adapter, is the go-redis
// adapter's.)
var valkeyNative = newRueidisClient("valkey-go", "github.com/valkey-io/valkey-go", "valkey", "IsValkeyNil")

func init() { register(valkeyNative, rueidisNames) }
