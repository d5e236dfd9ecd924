package v9

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/keyspace"
)

// Templates a radio scheduler hands to a shared key function
// (keyspace.Key): the package's constants say which keys are locks.
const (
	radioTxLockFmt    = "radio:%s:tx:lock"
	siteTxLockFmt     = "site:%s:tx:lock"
	radioProfileFmt   = "radio:%s:profile"
	frameSeenLockFmt  = "frame:%s:seen:lock"
	radioOwnerLockFmt = "radio:%s:owner:lock"
	jobClaimFmt       = "job:%s:claim"
)

var errBusy = errors.New("busy")

type txStep struct {
	ctx   context.Context
	rdb   *redis.Client
	radio string
	site  string
}

// One step of a chain takes the radio's lock with a value every holder
// writes; the next step gives it up when the site is busy.
func holdRadio(s *txStep) error {
	key := keyspace.Key(radioTxLockFmt, s.radio)
	ok, err := s.rdb.SetNX(s.ctx, key, "busy", 3*time.Second).Result() // want `lock key is acquired with the constant "busy" and released, so no owner check can tell holders apart; use a random token`
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func holdSite(s *txStep) error {
	key := keyspace.Key(siteTxLockFmt, s.site)
	ok, err := s.rdb.SetNX(s.ctx, key, "busy", time.Second).Result() // never released: silent
	if err != nil {
		return err
	}
	if !ok {
		s.rdb.Del(s.ctx, keyspace.Key(radioTxLockFmt, s.radio))
		return errBusy
	}
	return nil
}

// A key function of the package, named for the lock it builds.
func batchLockKey(id string) string { return "batch:" + id + ":lock" }

func openBatch(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, batchLockKey(id), 1, time.Minute).Val() // want `lock batchLockKey\(id\) is acquired with the constant 1`
}

func closeBatch(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, batchLockKey(id))
}

// --- silent ---

// A cache through the same key function: SET and DEL, no NX.
func saveProfile(ctx context.Context, rdb *redis.Client, radio, v string) {
	rdb.Set(ctx, keyspace.Key(radioProfileFmt, radio), v, time.Hour)
}

func dropProfile(ctx context.Context, rdb *redis.Client, radio string) {
	rdb.Del(ctx, keyspace.Key(radioProfileFmt, radio))
}

// A first-sighting marker: SET NX of a constant with a TTL, never deleted.
func firstSighting(ctx context.Context, rdb *redis.Client, frame string) bool {
	return rdb.SetNX(ctx, keyspace.Key(frameSeenLockFmt, frame), "lock", time.Minute).Val()
}

// A random token, released by a compare-and-delete script elsewhere.
func takeRadioOwner(ctx context.Context, rdb *redis.Client, radio string) (string, bool) {
	tok := newToken()
	return tok, rdb.SetNX(ctx, keyspace.Key(radioOwnerLockFmt, radio), tok, ttl).Val()
}

func dropRadioOwner(ctx context.Context, rdb *redis.Client, radio, tok string) {
	unlock.Run(ctx, rdb, []string{keyspace.Key(radioOwnerLockFmt, radio)}, tok)
}

// Through a shared key function, only a template, the key function or a
// function named like a lock makes the pair one lock: a claim whose
// names say nothing of a lock stays unpaired.
func claimJob(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, keyspace.Key(jobClaimFmt, id), "x", time.Minute).Val()
}

func finishJob(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, keyspace.Key(jobClaimFmt, id))
}
