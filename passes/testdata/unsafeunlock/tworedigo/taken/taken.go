// Package taken uses both names the older redigo could be imported
// under: no release fix.
package taken

import (
	"lockvet.test/unsafeunlock/tworedigo/server"

	"github.com/gomodule/redigo/redis"
)

var redigo = 1

func work() {}

func handle(c *server.Context, id string) {
	conn := c.Conn
	if reply, _ := redis.String(conn.Do("SET", "lock:"+id, "1", "NX", "EX", 10)); reply != "OK" {
		return
	}
	work()
	conn.Do("DEL", "lock:"+id) // want `DEL of lock key "lock:" \+ id does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\) \(no fix: can't rewrite this DEL\)`
}
