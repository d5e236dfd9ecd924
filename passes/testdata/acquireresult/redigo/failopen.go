package redigo

import (
	"errors"
	"log"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("lock busy")

// A failed SET NX logged and reported as a nil error, which the caller
// takes for acquired.
func (m *Mutex) LockOrErr() error {
	conn := m.pool.Get()
	defer conn.Close()
	reply, err := conn.Do("SET", m.key, m.token, "NX", "PX", 30000) // want `when SET fails, this path returns a nil error, read as acquired: in an outage every caller takes the lock; return the error`
	if err != nil {
		log.Print(err)
		return nil
	}
	if reply == nil {
		return errBusy
	}
	return nil
}

// A failure logged, then the work and the release.
func fallThrough(c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000) // want `when SET fails, this path still runs the work and the release without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	} else if reply == nil {
		return errBusy
	}
	defer unlockScript.Do(c, key, token)
	return work()
}

// --- silent ---

// The error returned: fail-closed.
func (m *Mutex) LockStrict() error {
	conn := m.pool.Get()
	defer conn.Close()
	reply, err := conn.Do("SET", m.key, m.token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return errBusy
	}
	return nil
}

// `_ = reply` reads nothing: a lock held by another process (a nil reply)
// runs the work and the release.
func blankReply(c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000) // want `when SET finds the lock busy, this path still runs the work and the release; stop when the key was not set`
	if err != nil {
		return err
	}
	_ = reply
	defer unlockScript.Do(c, key, token)
	return work()
}
