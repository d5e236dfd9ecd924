package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/keyspace"
)

// A feeder's transmit lock and a tower's, their keys from a shared key
// function and package templates that name the locks.
const (
	feederTxLockFmt = "feeder:%s:tx:lock"
	towerTxLockFmt  = "tower:%s:tx:lock"
	feederConfFmt   = "feeder:%s:conf"
	pollSeenLockFmt = "poll:%s:seen:lock"
)

type sendJob struct {
	ctx    context.Context
	rdb    *redis.Client
	feeder string
	tower  string
}

// --- reported ---

// One step of the send chain takes the feeder's lock with a value every
// holder writes; the next one gives it back when the tower is busy. By
// then the feeder's lock may have expired and been taken by another
// sender, or overwritten by the receive path: the DEL removes theirs.
func lockFeeder(j *sendJob) error {
	key := keyspace.Key(feederTxLockFmt, j.feeder)
	ok, err := j.rdb.SetNX(j.ctx, key, "held", 2*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLocked
	}
	return nil
}

func lockTower(j *sendJob) error {
	key := keyspace.Key(towerTxLockFmt, j.tower)
	ok, err := j.rdb.SetNX(j.ctx, key, "held", time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		feeder := keyspace.Key(feederTxLockFmt, j.feeder)
		j.rdb.Del(j.ctx, feeder) // want `Del of lock key feeder does not check the owner, and every holder writes "held": it can delete another holder's lock \(LV204\)`
		return ErrLocked
	}
	return nil
}

// --- silent ---

// The receive path holds the feeder off for a window: a plain SET of the
// lock key, before the work, with the holders' own value or from a
// function named to take the lock. It forces the lock; it releases
// nothing.
func holdFeederOff(j *sendJob, window time.Duration) error {
	return j.rdb.Set(j.ctx, keyspace.Key(feederTxLockFmt, j.feeder), "held", window).Err()
}

func setFeederLock(j *sendJob, window time.Duration) error {
	return j.rdb.Set(j.ctx, keyspace.Key(feederTxLockFmt, j.feeder), "rx-window", window).Err()
}

// A feeder's configuration, cached and evicted through the same key
// function: no NX anywhere.
func cacheFeederConf(j *sendJob, conf string) {
	j.rdb.Set(j.ctx, keyspace.Key(feederConfFmt, j.feeder), conf, time.Hour)
}

func evictFeederConf(j *sendJob) {
	j.rdb.Del(j.ctx, keyspace.Key(feederConfFmt, j.feeder))
}

// A once-per-TTL marker: SET NX of a constant with a TTL, never deleted.
func firstPoll(j *sendJob, poll string) bool {
	return j.rdb.SetNX(j.ctx, keyspace.Key(pollSeenLockFmt, poll), "lock", time.Minute).Val()
}

// The tower's lock is taken with a random token and given back by a
// compare-and-delete script in another function.
func lockTowerOwned(j *sendJob) (string, error) {
	tok := newToken()
	ok, err := j.rdb.SetNX(j.ctx, keyspace.Key(towerTxLockFmt, j.tower), tok, time.Second).Result()
	if err == nil && !ok {
		err = ErrLocked
	}
	return tok, err
}

func unlockTowerOwned(j *sendJob, tok string) error {
	const cad = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	return j.rdb.Eval(j.ctx, cad, []string{keyspace.Key(towerTxLockFmt, j.tower)}, tok).Err()
}
