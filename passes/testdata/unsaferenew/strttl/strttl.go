// A lock whose value is a random field set by the literal, renewed by
// PEXPIRE with its TTL as a string of digits: the script takes the number.
package strttl

import (
	"math/rand"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
)

type lock struct {
	pool  *redis.Pool
	name  string
	value string
}

func newLock(pool *redis.Pool, name string) (*lock, error) {
	l := &lock{pool: pool, name: "LOCK_" + name, value: strconv.Itoa(rand.Int())}
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", l.name, l.value, "NX", "PX", "5000")); err != nil {
		return nil, err
	}
	go l.keepalive()
	return l, nil
}

func (l *lock) keepalive() {
	for {
		conn := l.pool.Get()
		ok, err := redis.Bool(conn.Do("PEXPIRE", l.name, "5000")) // want `PEXPIRE renews lock l\.name in a loop without checking the token`
		conn.Close()
		if err != nil || !ok {
			return
		}
		time.Sleep(time.Second)
	}
}
