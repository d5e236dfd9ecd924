// Package leases keeps a long-running lease with redigo: a lock struct
// whose value is its own random token, renewed by a bare PEXPIRE (LV203)
// and released by GET, compare, DEL (LV202). Both fixes add a script
// declaration at the same place in the file.
package leases

import (
	"crypto/rand"
	"time"

	"github.com/gomodule/redigo/redis"
)

// Lease is one process's hold on name.
type Lease struct {
	pool  *redis.Pool
	name  string
	value string
	done  chan struct{}
}

// Acquire takes the lease, and renews it every second until Release.
func Acquire(pool *redis.Pool, name string) (*Lease, error) {
	l := &Lease{pool: pool, name: "lease:" + name, value: rand.Text(), done: make(chan struct{})}
	c := pool.Get()
	defer c.Close()
	reply, err := redis.String(c.Do("SET", l.name, l.value, "NX", "PX", 5000))
	if err == redis.ErrNil {
		return nil, nil
	}
	if err != nil || reply != "OK" {
		return nil, err
	}
	go l.renew()
	return l, nil
}

func (l *Lease) renew() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
		}
		c := l.pool.Get()
		ok, err := redis.Bool(c.Do("PEXPIRE", l.name, 5000))
		c.Close()
		if err != nil {
			continue
		}
		if !ok {
			return
		}
	}
}

// Release stops the renewals and deletes the lease while it is ours.
func (l *Lease) Release() {
	close(l.done)
	c := l.pool.Get()
	defer c.Close()
	v, _ := redis.String(c.Do("GET", l.name))
	if v == l.value {
		c.Do("DEL", l.name)
	}
}
