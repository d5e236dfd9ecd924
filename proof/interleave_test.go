package proof

// 8. Randomized interleaving: workers contend for one lock with short
// TTLs; before the release's deleting command each worker sometimes
// pauses past its TTL (a GC pause, a slow disk, a preempted process). With
// lockvet's fixed release nobody's lock is ever deleted by another worker
// and no two workers are in the critical section at once; with the buggy
// release the harness finds both, and the test requires that it does.
//
// The oracles only count what the release code alone can cause, using
// client-side times that bound the server's: a command is processed after
// it is sent and before its reply arrives. A lock's key is set after its
// acquire was sent, so it cannot expire before send+TTL, and it expires at
// the latest TTL after the acquire answered.
//
//   - two holders: a worker enters the critical section while its own
//     lease and another holder's are both certainly running (the key
//     cannot hold both tokens, so one was deleted by someone else);
//   - foreign delete: a delete answered 1 although it was sent after the
//     sender's own lock had certainly expired;
//   - stolen: a release answered "not yours" (0, or a GET of another
//     value) before its own lease could have run out.
//
// Scheduling delays can stretch a critical section past its TTL (a fact
// of TTL locks, not of the release code); such overstays are counted but
// are no violation.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	bugctd "github.com/lockvet/lockvet/proof/internal/buggy/checkthendel"
	bugdel "github.com/lockvet/lockvet/proof/internal/buggy/unsafeunlock"
	fixctd "github.com/lockvet/lockvet/proof/internal/fixed/checkthendel"
	fixdel "github.com/lockvet/lockvet/proof/internal/fixed/unsafeunlock"
)

const (
	ilWorkers = 8
	ilRounds  = 20 // acquisitions per worker
	ilTTL     = 50 * time.Millisecond
	ilMargin  = 10 * time.Millisecond // clock and scheduling slack in the oracles
	ilPauseP  = 0.25                  // chance of a pause before a release
	ilWorkMax = 3 * time.Millisecond  // critical-section length, uniform in [0, ilWorkMax)
)

// ilMutex is one worker's lock for one acquisition.
type ilMutex interface {
	TryLock(context.Context) (bool, error)
	Unlock(context.Context) error
}

type ilVariant struct {
	id, name string
	buggy    bool
	mk       func(rdb *redis.Client, key, token string) ilMutex
}

type delUnlock[M interface {
	TryLock(context.Context) (bool, error)
	Unlock(context.Context) (bool, error)
}] struct{ m M }

func (d delUnlock[M]) TryLock(ctx context.Context) (bool, error) { return d.m.TryLock(ctx) }
func (d delUnlock[M]) Unlock(ctx context.Context) error {
	_, err := d.m.Unlock(ctx)
	return err
}

var ilVariants = []ilVariant{
	{"8a", "buggy", true, func(rdb *redis.Client, key, token string) ilMutex {
		return delUnlock[*bugdel.Mutex]{&bugdel.Mutex{RDB: rdb, Key: key, Token: token, TTL: ilTTL}}
	}},
	{"8a", "fixed", false, func(rdb *redis.Client, key, token string) ilMutex {
		return delUnlock[*fixdel.Mutex]{&fixdel.Mutex{RDB: rdb, Key: key, Token: token, TTL: ilTTL}}
	}},
	{"8b", "buggy", true, func(rdb *redis.Client, key, token string) ilMutex {
		return &bugctd.Mutex{RDB: rdb, Key: key, Token: token, TTL: ilTTL}
	}},
	{"8b", "fixed", false, func(rdb *redis.Client, key, token string) ilMutex {
		return &fixctd.Mutex{RDB: rdb, Key: key, Token: token, TTL: ilTTL}
	}},
}

// ilStats is what one run found.
type ilStats struct {
	rounds, pauses                       atomic.Int64
	twoHolders, foreign, stolen, overrun atomic.Int64
}

func (s *ilStats) violations() int64 {
	return s.twoHolders.Load() + s.foreign.Load() + s.stolen.Load()
}

func (s *ilStats) String() string {
	return fmt.Sprintf("%d acquisitions, %d pauses: two holders %d, foreign deletes %d, stolen locks %d, overstays %d",
		s.rounds.Load(), s.pauses.Load(), s.twoHolders.Load(), s.foreign.Load(), s.stolen.Load(), s.overrun.Load())
}

// lease is one holder's time in the critical section.
type lease struct{ start time.Time }

func TestProofInterleaving(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		stats := map[string]*ilStats{}
		var mu sync.Mutex
		t.Run("runs", func(t *testing.T) {
			for i, v := range ilVariants {
				t.Run(v.id+"-"+v.name, func(t *testing.T) {
					t.Parallel()
					s := runInterleaving(t, be, v, fmt.Sprintf("lock:proof%s:%s", v.id, v.name), uint64(i+1))
					t.Logf("%s %s: %s", v.id, v.name, s)
					mu.Lock()
					stats[v.id+v.name] = s
					mu.Unlock()
				})
			}
		})
		for _, id := range []string{"8a", "8b"} {
			bug, fix := stats[id+"buggy"], stats[id+"fixed"]
			if bug == nil || fix == nil {
				t.Fatalf("%s: a run did not finish", id)
			}
			if fix.violations() != 0 {
				t.Errorf("%s fixed release: %s; want no two holders, no foreign delete, no stolen lock", id, fix)
			}
			if bug.foreign.Load() == 0 {
				t.Errorf("%s buggy release: %s; the harness did not catch the buggy release deleting another worker's lock", id, bug)
			}
			record(t, id, be.name,
				fmt.Sprintf("%d workers × %d acquisitions, TTL %s: violations found, releases that deleted a lock another worker held", ilWorkers, ilRounds, approx(ilTTL)),
				fmt.Sprintf("%d workers × %d acquisitions, TTL %s, same pauses: never two holders at once, never another worker's lock deleted", ilWorkers, ilRounds, approx(ilTTL)))
		}
	})
}

func runInterleaving(t *testing.T, be backend, v ilVariant, key string, seed uint64) *ilStats {
	ctx := context.Background()
	s := &ilStats{}
	var mu sync.Mutex
	holders := map[int]lease{}
	var wg sync.WaitGroup
	errs := make(chan error, ilWorkers)
	for w := range ilWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			// Per release: the pause and what the deleting command did.
			var leaseEnd time.Time // latest end of this worker's lease
			var delSent, delReplied time.Time
			var deleted bool
			rdb := be.v9(t, hook{key: key,
				before: func(_ context.Context, cmd redis.Cmder) {
					if !deletes(cmd) {
						return
					}
					if rng.Float64() < ilPauseP {
						s.pauses.Add(1)
						time.Sleep(ilTTL + ilMargin + time.Duration(rng.Int64N(int64(ilTTL/2))))
					}
					delSent = time.Now()
				},
				after: func(_ context.Context, cmd redis.Cmder) {
					if !deletes(cmd) {
						return
					}
					delReplied = time.Now()
					var n int64
					switch c := cmd.(type) {
					case *redis.IntCmd:
						n = c.Val()
					case *redis.Cmd:
						n, _ = c.Int64()
					}
					if n == 1 {
						deleted = true
						if delSent.After(leaseEnd.Add(ilMargin)) {
							s.foreign.Add(1)
						}
					}
				},
			})
			for round := 0; round < ilRounds; {
				token := fmt.Sprintf("w%d-r%d", w, round)
				m := v.mk(rdb, key, token)
				sent := time.Now()
				ok, err := m.TryLock(ctx)
				if err != nil {
					errs <- err
					return
				}
				if !ok {
					time.Sleep(time.Millisecond + time.Duration(rng.Int64N(int64(time.Millisecond))))
					continue
				}
				leaseEnd = time.Now().Add(ilTTL)
				round++
				s.rounds.Add(1)

				// The critical section.
				mu.Lock()
				now := time.Now()
				for _, h := range holders {
					if now.Before(h.start.Add(ilTTL-ilMargin)) && now.Before(sent.Add(ilTTL-ilMargin)) {
						s.twoHolders.Add(1)
					}
				}
				holders[w] = lease{sent}
				mu.Unlock()
				time.Sleep(time.Duration(rng.Int64N(int64(ilWorkMax))))
				mu.Lock()
				delete(holders, w)
				mu.Unlock()
				if time.Since(sent) > ilTTL-ilMargin {
					s.overrun.Add(1)
				}

				// The release; a pause may hit before its delete.
				deleted, delSent, delReplied = false, time.Time{}, time.Time{}
				if err := m.Unlock(ctx); err != nil {
					errs <- err
					return
				}
				// When the server last answered this release: the
				// deleting command's reply, or (GET of another value, no
				// delete sent) the end of Unlock.
				answered := delReplied
				if answered.IsZero() {
					answered = time.Now()
				}
				if !deleted && answered.Before(sent.Add(ilTTL-ilMargin)) {
					s.stolen.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return s
}
