// Renewals of a lock acquired with a constant: the fix is the acquire's
// token plan (LV204's), with the renewal comparing too, so that applied
// with LV204's and LV201's fixes the token is one variable.
package tokenplan

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const (
	lockTTL     = 10 // seconds
	lockRefresh = 5  // seconds
)

type clusterLock struct {
	pool *redis.Pool
	key  string
	done chan struct{}
}

func (n *clusterLock) get() (<-chan struct{}, error) {
	conn := n.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", n.key, 1, "NX", "EX", lockTTL))
	if err == redis.ErrNil {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	n.done = make(chan struct{})
	go func() {
		conn := n.pool.Get()
		defer conn.Close()
		for {
			select {
			case <-n.done:
				conn.Do("DEL", n.key)
				return
			case <-time.After(lockRefresh * time.Second):
				result, err := redis.Int(conn.Do("EXPIRE", n.key, lockTTL)) // want `EXPIRE renews lock n\.key in a loop without checking the token`
				if err != nil || result == 0 {
					return
				}
			}
		}
	}()
	return n.done, nil
}
