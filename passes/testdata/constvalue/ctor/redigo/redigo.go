// Package redigo makes locks through the constructor of xpkg/redigo/ctor.
package redigo

import (
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"

	"lockvet.test/xpkg/redigo/ctor"
)

func work() {}

// A constant byte slice as the value.
func constant(pool *redis.Pool) {
	m := ctor.NewMutex(pool, "job", []byte("locked"), 30000) // want `the lock value passed to NewMutex is the constant "locked"`
	if ok, _ := m.Lock(); ok {
		defer m.Unlock()
		work()
	}
}

// Seconds since the epoch: one per second.
func seconds(pool *redis.Pool) {
	m := ctor.NewMutex(pool, "job", []byte(strconv.FormatInt(time.Now().Unix(), 10)), 30000) // want `strconv.FormatInt\(time.Now\(\).Unix\(\), 10\)\) \(seconds: the same for all who lock in that second\)`
	m.Lock()
}

// A start count is no lock's value: silent.
func counter(pool *redis.Pool) {
	ctor.NewCounter(pool, "hits", 0).Init()
}
