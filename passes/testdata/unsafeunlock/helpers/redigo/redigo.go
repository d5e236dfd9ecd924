// Lock helpers of one package, redigo.
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// --- reported ---

func Lock(c redis.Conn, key string, seconds int) (bool, error) {
	_, err := redis.String(c.Do("SET", key, "locked", "NX", "EX", seconds))
	if err == redis.ErrNil {
		return false, nil
	}
	return err == nil, err
}

func Unlock(c redis.Conn, key string) error {
	_, err := c.Do("DEL", key) // want `DEL of lock key key does not check the owner, and every holder writes "locked": it can delete another holder's lock \(LV204\)`
	return err
}

type Pool struct{ p *redis.Pool }

func (p *Pool) Obtain(key, token string) (bool, error) {
	c := p.p.Get()
	defer c.Close()
	reply, err := c.Do("SET", key, token, "PX", 30000, "NX")
	return reply != nil, err
}

func (p *Pool) Release(key, token string) error {
	c := p.p.Get()
	defer c.Close()
	_, err := c.Do("UNLINK", key) // want `UNLINK of lock key key does not check the owner`
	return err
}

// --- silent ---

// Cache helpers.
func Put(c redis.Conn, key, v string) error {
	_, err := c.Do("SET", key, v, "NX", "EX", 60)
	return err
}

func Evict(c redis.Conn, key string) error {
	_, err := c.Do("DEL", key)
	return err
}

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func (p *Pool) TryLock(key, token string) (bool, error) {
	c := p.p.Get()
	defer c.Close()
	reply, err := c.Do("SET", key, token, "PX", 30000, "NX")
	return reply != nil, err
}

func (p *Pool) Unlock(key, token string) error {
	c := p.p.Get()
	defer c.Close()
	_, err := unlock.Do(c, key, token)
	return err
}
