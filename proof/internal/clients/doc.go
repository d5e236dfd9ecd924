// Package clients holds the lock templates of lockvet's rewrite table
// (acquire, release, renew) for the clients whose adapters are newer than
// go-redis: redigo, rueidis, gomemcache. The proof runs them against the
// real servers, and uses them for any operation lockvet reports on those
// clients without a fix of its own. The Lua scripts come from
// internal/lua, the source lockvet's fixes insert.
package clients
