// Package handles imports the newer redigo path as redis, but its
// connections come from the older one: the release script must be made
// by the older package (its Script.Do recognises NOSCRIPT only by its own
// Error type), imported under another name.
package handles

import (
	"lockvet.test/unsafeunlock/tworedigo/server"

	"github.com/gomodule/redigo/redis"
)

func work() {}

func handle(c *server.Context, id string) {
	conn := c.Conn
	ok, _ := redis.String(conn.Do("SET", "lock:"+id, "1", "NX", "EX", 10))
	if ok != "OK" {
		return
	}
	defer func() {
		conn.Do("DEL", "lock:"+id) // want `DEL of lock key "lock:" \+ id does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	}()
	work()
}
