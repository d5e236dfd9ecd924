// A helper pair one level up, redigo: the store's lock/unlock (SET NX EX,
// DEL) wrapped by the service's tryLock/unlock. The outer acquire's
// early return (no pool) returns "" as the token.
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

type store struct{ pool *redis.Pool }

func (s *store) lock(key string) (bool, error) {
	c := s.pool.Get()
	defer c.Close()
	_, err := redis.String(c.Do("SET", "lock:"+key, "1", "NX", "EX", 30))
	if err == redis.ErrNil {
		return false, nil
	}
	return err == nil, err
}

func (s *store) unlock(key string) error {
	c := s.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", "lock:"+key) // want `DEL of lock key "lock:" \+ key does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)$`
	return err
}

type worker struct{ st *store }

func (w *worker) tryLock(key string) error {
	if w.st == nil {
		return nil
	}
	ok, err := w.st.lock(key)
	if err != nil {
		return err
	}
	if !ok {
		return redis.ErrNil
	}
	return nil
}

func (w *worker) unlock(key string) {
	if w.st != nil {
		_ = w.st.unlock(key)
	}
}

func (w *worker) job(key string) error {
	if err := w.tryLock(key); err != nil {
		return err
	}
	defer w.unlock(key)
	return nil
}
