package rueidis

import (
	"context"
	"log"

	"github.com/redis/rueidis"
)

// A failed SET NX logged and reported as a nil error.
func (m *Mutex) LockOrErr(ctx context.Context) error {
	err := m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().ExSeconds(30).Build()).Error() // want `when SET fails, this path returns a nil error, read as acquired: in an outage every caller takes the lock; return the error`
	if rueidis.IsRedisNil(err) {
		return errBusy
	}
	if err != nil {
		log.Print(err)
		return nil
	}
	return nil
}

// A failure logged, then the work and a deferred release.
func (m *Mutex) fallThrough(ctx context.Context) error {
	err := m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().ExSeconds(30).Build()).Error() // want `when SET fails, this path still runs the work and the release without the lock; stop on the error`
	if rueidis.IsRedisNil(err) {
		return errBusy
	} else if err != nil {
		log.Print(err)
	}
	defer unlockScript.Exec(ctx, m.client, []string{m.key}, []string{m.token})
	return work(ctx)
}

// --- silent ---

// The error returned: fail-closed.
func (m *Mutex) LockStrict(ctx context.Context) error {
	err := m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().ExSeconds(30).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return errBusy
	}
	return err
}
