// redigo: the embedded compare-and-delete script is reused by the fix.
package embedredigo

import (
	_ "embed"
	"time"

	"github.com/gomodule/redigo/redis"
)

//go:embed unlock.lua
var unlockLua string

var unlock = redis.NewScript(1, unlockLua)

func work(c redis.Conn, key, token string) error {
	if reply, err := c.Do("SET", key, token, "NX", "PX", int64(time.Minute/time.Millisecond)); reply == nil || err != nil {
		return err
	}
	_, err := c.Do("DEL", key) // want `DEL of lock key key does not check the owner`
	return err
}

// Silent: released with the embedded script.
func done(c redis.Conn, key, token string) error {
	if reply, err := c.Do("SET", key, token, "NX", "PX", 60000); reply == nil || err != nil {
		return err
	}
	_, err := unlock.Do(c, key, token)
	return err
}
