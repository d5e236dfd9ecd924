package redigo

import (
	"github.com/gomodule/redigo/redis"

	"lockvet.test/keyspace"
)

const (
	printerLockFmt = "printer:%s:lock"
	printerJobsFmt = "printer:%s:jobs"
)

// A printer lock taken with a constant by one function and dropped by
// another, its key from a shared key function.
func reservePrinter(c redis.Conn, name string) bool {
	ok, _ := redis.String(c.Do("SET", keyspace.Key(printerLockFmt, name), "taken", "NX", "PX", 4000)) // want `lock keyspace.Key\(printerLockFmt, name\) is acquired with the constant "taken"`
	return ok == "OK"
}

func cancelPrinter(c redis.Conn, name string) {
	c.Do("DEL", keyspace.Key(printerLockFmt, name))
}

// --- silent ---

// A queue of jobs written and cleared through the same key function.
func queueJob(c redis.Conn, name, job string) {
	c.Do("SET", keyspace.Key(printerJobsFmt, name), job, "EX", 600)
}

func clearJobs(c redis.Conn, name string) {
	c.Do("DEL", keyspace.Key(printerJobsFmt, name))
}
