package redigo

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/keyspace"
)

const (
	kilnLockFmt = "kiln:%s:fire:lock"
	kilnLogFmt  = "kiln:%s:log"
)

// --- reported ---

// The firing lock: taken with a constant in one function, dropped in
// another when the next step cannot start.
func claimKiln(c redis.Conn, kiln string) (bool, error) {
	reply, err := c.Do("SET", keyspace.Key(kilnLockFmt, kiln), "fire", "NX", "EX", 60)
	return reply != nil, err
}

func backOutKiln(c redis.Conn, kiln string) {
	c.Do("DEL", keyspace.Key(kilnLockFmt, kiln)) // want `DEL of lock key keyspace\.Key\(kilnLockFmt, kiln\) does not check the owner, and every holder writes "fire": it can delete another holder's lock \(LV204\)`
}

// --- silent ---

// The receive side holds the kiln with the holders' own value: a forced
// lock, not a release.
func holdKiln(c redis.Conn, kiln string) {
	c.Do("SET", keyspace.Key(kilnLockFmt, kiln), "fire", "EX", 5)
}

// A log kept and cleared through the same key function, never with NX.
func writeKilnLog(c redis.Conn, kiln, line string) {
	c.Do("SET", keyspace.Key(kilnLogFmt, kiln), line, "EX", 3600)
}

func clearKilnLog(c redis.Conn, kiln string) {
	c.Do("DEL", keyspace.Key(kilnLogFmt, kiln))
}
