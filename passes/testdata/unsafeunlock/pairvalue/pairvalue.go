// Lock/Unlock pairs whose value is no token the release can have: the
// acquire writes the time, and the release helper has nothing to compare.
// The fix writes a random token instead, returned by the lock helper and
// taken by the release helper.
package pairvalue

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type queue struct {
	rdb *redis.Client
}

func (q *queue) taskLockKey(id string) string {
	return fmt.Sprintf("cc:apiTask:%s", id)
}

func (q *queue) lockTask(ctx context.Context, id string, ttl int64) (bool, error) {
	key := q.taskLockKey(id)
	locked, err := q.rdb.SetNX(ctx, key, time.Now(), time.Minute*time.Duration(ttl)).Result()
	if err != nil {
		return false, err
	}
	return locked, nil
}

func (q *queue) unlockTask(ctx context.Context, id string) (err error) {
	key := q.taskLockKey(id)
	_, err = q.rdb.Del(ctx, key).Result() // want `Del of lock key key does not check the owner, so after the TTL`
	return err
}

func (q *queue) run(ctx context.Context, id string) bool {
	locked, err := q.lockTask(ctx, id, 5)
	if err != nil || !locked {
		return false
	}
	defer func() {
		if err := q.unlockTask(ctx, id); err != nil {
			fmt.Println("unlock:", err)
		}
	}()
	return true
}

// --- no fix ---

// The value is read back (the time the job started): a token in its
// place would change what the reader sees.
type jobs struct {
	rdb *redis.Client
}

func (j *jobs) start(ctx context.Context, id string) (bool, error) {
	return j.rdb.SetNX(ctx, "job:lock:"+id, time.Now().Unix(), time.Minute).Result()
}

func (j *jobs) since(ctx context.Context, id string) (int64, error) {
	return j.rdb.Get(ctx, "job:lock:"+id).Int64()
}

func (j *jobs) finish(ctx context.Context, id string) error {
	return j.rdb.Del(ctx, "job:lock:"+id).Err() // want `Del of lock key "job:lock:" \+ id does not check the owner, so after the TTL it can delete another holder's lock; delete only while it holds the token \(no fix: Get in since uses keys of this shape\)`
}
