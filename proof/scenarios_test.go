package proof

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	bugacq "github.com/lockvet/lockvet/proof/internal/buggy/acquireresult"
	bugctd "github.com/lockvet/lockvet/proof/internal/buggy/checkthendel"
	bugcts "github.com/lockvet/lockvet/proof/internal/buggy/checkthenset"
	bugpair "github.com/lockvet/lockvet/proof/internal/buggy/constpair"
	bugconst "github.com/lockvet/lockvet/proof/internal/buggy/constvalue"
	buggetset "github.com/lockvet/lockvet/proof/internal/buggy/getsetexpire"
	bugstruct "github.com/lockvet/lockvet/proof/internal/buggy/lockstruct"
	bugprefix "github.com/lockvet/lockvet/proof/internal/buggy/prefixdel"
	bugsetnx "github.com/lockvet/lockvet/proof/internal/buggy/setnxexpire"
	bugttl "github.com/lockvet/lockvet/proof/internal/buggy/ttlunit"
	bugtx "github.com/lockvet/lockvet/proof/internal/buggy/txacquire"
	bugrenew "github.com/lockvet/lockvet/proof/internal/buggy/unsaferenew"
	bugdel "github.com/lockvet/lockvet/proof/internal/buggy/unsafeunlock"
	fixacq "github.com/lockvet/lockvet/proof/internal/fixed/acquireresult"
	fixctd "github.com/lockvet/lockvet/proof/internal/fixed/checkthendel"
	fixcts "github.com/lockvet/lockvet/proof/internal/fixed/checkthenset"
	fixpair "github.com/lockvet/lockvet/proof/internal/fixed/constpair"
	fixconst "github.com/lockvet/lockvet/proof/internal/fixed/constvalue"
	fixgetset "github.com/lockvet/lockvet/proof/internal/fixed/getsetexpire"
	fixstruct "github.com/lockvet/lockvet/proof/internal/fixed/lockstruct"
	fixprefix "github.com/lockvet/lockvet/proof/internal/fixed/prefixdel"
	fixsetnx "github.com/lockvet/lockvet/proof/internal/fixed/setnxexpire"
	fixttl "github.com/lockvet/lockvet/proof/internal/fixed/ttlunit"
	fixtx "github.com/lockvet/lockvet/proof/internal/fixed/txacquire"
	fixrenew "github.com/lockvet/lockvet/proof/internal/fixed/unsaferenew"
	fixdel "github.com/lockvet/lockvet/proof/internal/fixed/unsafeunlock"
)

// --- 1. SETNX then EXPIRE, holder killed in between (LV101) ---

// The holder is a child process (this test binary, re-executed) that runs
// the shape's Acquire against the server; a client hook stops it at a
// numbered point before or after each command on the lock key and tells
// the parent, which SIGKILLs it there. Every point of each variant is
// tried, each with a key of its own.

const (
	childEnv    = "LOCKVET_PROOF_CHILD"
	childShape  = "LOCKVET_PROOF_SHAPE" // "getset": the GETSET takeover (1b)
	childTTL    = 2 * time.Second
	childToken  = "child-token"
	childBuggy  = "buggy"
	childFixed  = "fixed"
	childLinger = time.Hour
)

// child is the holder process: it runs until the numbered point, reports
// it on stdout and waits to be killed; past the last point it prints
// DONE.
func child() int {
	addr, key, variant := os.Getenv("LOCKVET_PROOF_ADDR"), os.Getenv("LOCKVET_PROOF_KEY"), os.Getenv(childEnv)
	window, err := strconv.Atoi(os.Getenv("LOCKVET_PROOF_WINDOW"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad LOCKVET_PROOF_WINDOW:", err)
		return 2
	}
	n := 0
	point := func(label string) {
		if n == window {
			fmt.Printf("WINDOW %s\n", label)
			time.Sleep(childLinger) // killed here
		}
		n++
	}
	rdb := newV9(addr)
	rdb.AddHook(hook{
		key:    key,
		before: func(_ context.Context, cmd redis.Cmder) { point("before " + strings.ToUpper(cmd.Name())) },
		after: func(_ context.Context, cmd redis.Cmder) {
			label := "after " + strings.ToUpper(cmd.Name())
			if cmd.Name() == "set" {
				// What the acquire sent and got: the parent checks it.
				label += fmt.Sprintf(" [expiry %q, reply %v]", setExpiry(cmd.Args()), cmd.(*redis.BoolCmd).Val())
			}
			point(label)
		},
	})
	var run func() (any, error)
	if os.Getenv(childShape) == "getset" {
		takeover := buggetset.Takeover
		if variant == childFixed {
			takeover = fixgetset.Takeover
		}
		run = func() (any, error) { return takeover(context.Background(), rdb, key, childToken, childTTL) }
	} else {
		acquire := bugsetnx.Acquire
		if variant == childFixed {
			acquire = fixsetnx.Acquire
		}
		run = func() (any, error) { return acquire(context.Background(), rdb, key, childToken, childTTL) }
	}
	v, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "acquire:", err)
		return 2
	}
	fmt.Printf("DONE %v\n", v)
	return 0
}

// killAt runs the child until point window and kills it there. It
// returns the point's label, or "" when the child finished first.
func killAt(t *testing.T, addr, key, variant string, window int, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+variant, "LOCKVET_PROOF_ADDR="+addr, "LOCKVET_PROOF_KEY="+key, "LOCKVET_PROOF_WINDOW="+strconv.Itoa(window))
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- strings.TrimSpace(l)
		io.Copy(io.Discard, stdout)
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child (%s, point %d) said nothing in 30s; stderr:\n%s", variant, window, stderr.String())
	}
	if label, ok := strings.CutPrefix(line, "WINDOW "); ok {
		if err := cmd.Process.Signal(os.Kill); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		return label
	}
	if err := cmd.Wait(); err != nil || !strings.HasPrefix(line, "DONE") {
		t.Fatalf("child (%s, point %d): %q, %v; stderr:\n%s", variant, window, line, err, stderr.String())
	}
	return ""
}

// A kill is where a holder was killed, on which key, and the key's PTTL
// right after.
type kill struct {
	label, key string
	atKill     int64
}

// killEach kills the holder at each of its points in turn, for the buggy
// and the fixed variant, each point on a key of its own (prefix:variant:n)
// that setup, when not nil, prepares. It returns the kills by variant and
// the time of the last.
func killEach(t *testing.T, b backend, rdb *redis.Client, prefix string, setup func(key string), env ...string) (map[string][]kill, time.Time) {
	t.Helper()
	kills := map[string][]kill{}
	var last time.Time
	for _, variant := range []string{childBuggy, childFixed} {
		for w := 0; ; w++ {
			key := fmt.Sprintf("%s:%s:%d", prefix, variant, w)
			if setup != nil {
				setup(key)
			}
			label := killAt(t, b.addr, key, variant, w, env...)
			if label == "" {
				break
			}
			last = time.Now()
			kills[variant] = append(kills[variant], kill{label, key, pttl(t, rdb, key)})
			if w > 10 {
				t.Fatal("more kill points than commands")
			}
		}
	}
	return kills, last
}

// checkKills checks the keys childTTL and a half after the kills: some
// buggy kill left its key with no TTL, then and now (their labels are
// returned), and every fixed kill left its key absent or with a TTL of at
// most childTTL, and gone now.
func checkKills(t *testing.T, rdb *redis.Client, kills map[string][]kill) (forever []string) {
	t.Helper()
	for _, k := range kills[childBuggy] {
		now := pttl(t, rdb, k.key)
		t.Logf("buggy, killed %s: PTTL %d at the kill, %d later", k.label, k.atKill, now)
		if k.atKill == -1 && now == -1 {
			label, _, _ := strings.Cut(k.label, " [")
			forever = append(forever, label)
		}
	}
	if len(forever) == 0 {
		t.Errorf("buggy: no kill point left the key without a TTL")
	}
	for _, k := range kills[childFixed] {
		now := pttl(t, rdb, k.key)
		t.Logf("fixed, killed %s: PTTL %d at the kill, %d later", k.label, k.atKill, now)
		if k.atKill == -1 || k.atKill == 0 || k.atKill > childTTL.Milliseconds() {
			t.Errorf("fixed, killed %s: PTTL %d, want no key or 0 < PTTL <= %d", k.label, k.atKill, childTTL.Milliseconds())
		}
		if now != -2 {
			t.Errorf("fixed, killed %s: PTTL %d %s later, want the key gone", k.label, now, childTTL+childTTL/2)
		}
	}
	return forever
}

func TestProofSetNXExpire(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, b backend) {
		rdb := b.v9(t)
		kills, last := killEach(t, b, rdb, "lock:proof1", nil)
		sleepUntil(last.Add(childTTL + childTTL/2))

		forever := checkKills(t, rdb, kills)
		acquired := false
		for _, k := range kills[childFixed] {
			// The acquire took the lock, with its TTL in the same command.
			acquired = acquired || strings.HasPrefix(k.label, "after SET") && strings.HasSuffix(k.label, `[expiry "ex 2", reply true]`)
		}
		if !acquired {
			t.Errorf("fixed: no kill point after a SET that took the lock with its TTL; the scenario proves nothing")
		}
		record(t, "1", b.name,
			fmt.Sprintf("killed at each of its %d points: killed %s, the key is left with no TTL (PTTL -1) and still held %s later", len(kills[childBuggy]), strings.Join(forever, " or "), approx(childTTL+childTTL/2)),
			fmt.Sprintf("one SET takes the lock with its TTL (EX %d); killed at each of its %d points: the key is absent or has its TTL (0 < PTTL ≤ %s) every time, and is gone %s later", int(childTTL.Seconds()), len(kills[childFixed]), approx(childTTL), approx(childTTL+childTTL/2)))
	})
}

// --- 1b. GETSET then EXPIRE, holder killed in between (LV101) ---

// The takeover of a stale lock (the old holder's value, with a TTL) by
// GETSET, then EXPIRE: GETSET clears the TTL, so a holder killed between
// the two leaves the key with none. lockvet's fix runs one script that
// sets the value and the TTL together and replies the old value, as
// GETSET does.
func TestProofGetSetExpire(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, b backend) {
		rdb := b.v9(t)
		ctx := context.Background()

		// The script replies what GETSET replies: the old value, and
		// redis.Nil when there was none.
		for _, variant := range []string{childBuggy, childFixed} {
			takeover := buggetset.Takeover
			if variant == childFixed {
				takeover = fixgetset.Takeover
			}
			key := "lock:proof1b:reply:" + variant
			if err := rdb.Set(ctx, key, "stale", childTTL).Err(); err != nil {
				t.Fatal(err)
			}
			if old, err := takeover(ctx, rdb, key, childToken, childTTL); old != "stale" || err != nil {
				t.Errorf("%s: takeover of a held key replied %q, %v; want \"stale\", nil", variant, old, err)
			}
			if v := rdb.Get(ctx, key).Val(); v != childToken {
				t.Errorf("%s: the key holds %q after the takeover, want %q", variant, v, childToken)
			}
			if old, err := takeover(ctx, rdb, key+":absent", childToken, childTTL); old != "" || err != redis.Nil {
				t.Errorf("%s: takeover of an absent key replied %q, %v; want \"\", redis.Nil", variant, old, err)
			}
			if p := pttl(t, rdb, key+":absent"); variant == childFixed && (p <= 0 || p > childTTL.Milliseconds()) {
				t.Errorf("fixed: an absent key taken over has PTTL %d, want 0 < PTTL <= %d", p, childTTL.Milliseconds())
			}
		}

		// Each key starts as the stale lock the takeover replaces, with
		// its TTL.
		stale := func(key string) {
			if err := rdb.Set(ctx, key, "stale", childTTL).Err(); err != nil {
				t.Fatal(err)
			}
		}
		kills, last := killEach(t, b, rdb, "lock:proof1b", stale, childShape+"=getset")
		sleepUntil(last.Add(childTTL + childTTL/2))

		forever := checkKills(t, rdb, kills)
		if len(kills[childFixed]) < 2 {
			t.Errorf("fixed: %d kill points, want one before and one after the script", len(kills[childFixed]))
		}
		record(t, "1b", b.name,
			fmt.Sprintf("killed at each of its %d points: killed %s, GETSET has cleared the stale lock's TTL and the key is still held %s later (PTTL -1)", len(kills[childBuggy]), strings.Join(forever, " or "), approx(childTTL+childTTL/2)),
			fmt.Sprintf("one script writes the value and its TTL and replies the old value (and redis.Nil for an absent key) as GETSET does; killed at each of its %d points: the key has a TTL (0 < PTTL ≤ %s) every time, and is gone %s later", len(kills[childFixed]), approx(childTTL), approx(childTTL+childTTL/2)))
	})
}

// --- 2. SETNX + EXPIRE in one transaction (LV102) ---

func TestProofTxAcquire(t *testing.T) {
	t.Parallel()
	const ttlA, ttlB = 10 * time.Second, time.Hour
	eachRedis(t, func(t *testing.T, b backend) {
		ctx, rdb := context.Background(), b.v9(t)
		run := func(acquire func(context.Context, *redis.Client, string, string, time.Duration) (bool, error), key string) (bool, int64) {
			if !must(rdb.SetNX(ctx, key, "owner-A", ttlA).Result())(t) {
				t.Fatal("A could not take a free lock")
			}
			ok := must(acquire(ctx, rdb, key, "B", ttlB))(t)
			if v := get(t, rdb, key); v != "owner-A" {
				t.Fatalf("the lock holds %q, want A's", v)
			}
			return ok, pttl(t, rdb, key)
		}
		okBug, ttlBug := run(bugtx.Acquire, "lock:proof2:buggy")
		okFix, ttlFix := run(fixtx.Acquire, "lock:proof2:fixed")
		if okBug || okFix {
			t.Fatalf("B acquired a held lock: buggy %v, fixed %v", okBug, okFix)
		}
		if ttlBug <= ttlA.Milliseconds() {
			t.Errorf("buggy: A's PTTL is %d, want it rewritten to about %d", ttlBug, ttlB.Milliseconds())
		}
		if ttlFix <= 0 || ttlFix > ttlA.Milliseconds() {
			t.Errorf("fixed: A's PTTL is %d, want 0 < PTTL <= %d", ttlFix, ttlA.Milliseconds())
		}
		record(t, "2", b.name,
			fmt.Sprintf("B's acquire fails, but its queued EXPIRE rewrites A's TTL from %s to %s", approx(ttlA), approx(time.Duration(ttlBug)*time.Millisecond)),
			fmt.Sprintf("B's acquire fails and A's TTL is untouched (≤ %s)", approx(ttlA)))
	})
}

// --- 3. releasing another owner's lock (LV201, LV202) ---

const (
	shortTTL = 100 * time.Millisecond
	longTTL  = 10 * time.Second
)

// expireAndRetake waits until A's lock (taken at start with shortTTL) has
// expired, and lets B take the key.
func expireAndRetake(t *testing.T, rdb *redis.Client, key string, start time.Time, b func() (bool, error)) {
	t.Helper()
	sleepUntil(start.Add(shortTTL))
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		n := pttl(t, rdb, key)
		if n == -2 {
			break
		}
		if n == -1 || time.Now().After(deadline) {
			t.Fatalf("A's lock has not expired: PTTL %d", n)
		}
	}
	if !must(b())(t) {
		t.Fatal("B could not take the expired lock")
	}
}

func TestProofUnsafeUnlock(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		var deleted [2]bool
		var after [2]string
		for i, key := range []string{"lock:proof3a:buggy", "lock:proof3a:fixed"} {
			start := time.Now()
			if i == 0 {
				a, b := &bugdel.Mutex{RDB: rdb, Key: key, Token: "A", TTL: shortTTL}, &bugdel.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				must(a.TryLock(ctx))(t)
				expireAndRetake(t, rdb, key, start, func() (bool, error) { return b.TryLock(ctx) })
				deleted[i] = must(a.Unlock(ctx))(t)
			} else {
				a, b := &fixdel.Mutex{RDB: rdb, Key: key, Token: "A", TTL: shortTTL}, &fixdel.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				must(a.TryLock(ctx))(t)
				expireAndRetake(t, rdb, key, start, func() (bool, error) { return b.TryLock(ctx) })
				deleted[i] = must(a.Unlock(ctx))(t)
			}
			after[i] = get(t, rdb, key)
		}
		if !deleted[0] || after[0] != "(no key)" {
			t.Errorf("buggy: A's late Unlock deleted=%v, key now %q; want B's lock deleted", deleted[0], after[0])
		}
		if deleted[1] || after[1] != "B" {
			t.Errorf("fixed: A's late Unlock deleted=%v, key now %q; want B's lock kept", deleted[1], after[1])
		}
		record(t, "3a", be.name,
			"A's late Unlock deletes B's lock (key gone)",
			"A's late Unlock deletes nothing; B's lock survives")
	})
}

// withLock is the signature of the constvalue shape's WithLock.
type withLock func(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error)

func TestProofConstValue(t *testing.T) {
	t.Parallel()
	lateRelease(t, "3c", bugconst.WithLock, fixconst.WithLock,
		"A's late release deletes B's lock: both hold the value \"1\"",
		"A's late release deletes nothing; B's lock, with its own token, survives")
}

// The helper pair: lock and unlock in two functions, the fix threads the
// token from one to the other through WithLock.
func TestProofConstPair(t *testing.T) {
	t.Parallel()
	lateRelease(t, "3d", bugpair.WithLock, fixpair.WithLock,
		"A's late unlock deletes B's lock: both hold the value \"1\"",
		"A's late unlock deletes nothing; lock returned a token that unlock compares")
}

// The lock struct: Lock keeps the key in a field and forgets the value it
// wrote; the fix keeps it in a token field that Unlock compares.
func TestProofLockStruct(t *testing.T) {
	t.Parallel()
	lateRelease(t, "3f", bugstruct.WithLock, fixstruct.WithLock,
		"A's late Unlock deletes B's lock: the mutex kept no token to compare",
		"A's late Unlock deletes nothing; Lock kept its token in the mutex and Unlock compares it")
}

// lateRelease runs case id: A holds the lock past its TTL while B, the
// same code in another process, takes it; A's release then runs while B
// holds it. The buggy WithLock deletes B's lock, the fixed one does not.
func lateRelease(t *testing.T, id string, buggy, fixed withLock, buggyOutcome, fixedOutcome string) {
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		var after [2]string
		for i, key := range []string{"lock:proof" + id + ":buggy", "lock:proof" + id + ":fixed"} {
			lock := buggy
			if i == 1 {
				lock = fixed
			}
			// A holds the lock past its TTL; B, the same code in another
			// process, takes it and holds it while A's release runs.
			holding, done := make(chan struct{}), make(chan struct{})
			bResult := make(chan error, 1)
			start := time.Now()
			ran := must(lock(ctx, rdb, key, shortTTL, func() {
				expireAndRetake(t, rdb, key, start, func() (bool, error) {
					go func() {
						ok, err := lock(ctx, rdb, key, longTTL, func() {
							close(holding)
							<-done
						})
						if err == nil && !ok {
							err = fmt.Errorf("B found the lock held")
						}
						bResult <- err
					}()
					<-holding
					return true, nil
				})
			}))(t)
			if !ran {
				t.Fatal("A did not get the lock")
			}
			after[i] = get(t, rdb, key)
			close(done)
			if err := <-bResult; err != nil {
				t.Fatal(err)
			}
		}
		if after[0] != "(no key)" {
			t.Errorf("buggy: after A's late release the key holds %q; want B's lock deleted", after[0])
		}
		if after[1] == "(no key)" {
			t.Errorf("fixed: A's late release deleted B's lock")
		}
		record(t, id, be.name, buggyOutcome, fixedOutcome)
	})
}

func TestProofCheckThenDel(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		var after [2]string
		for i, key := range []string{"lock:proof3b:buggy", "lock:proof3b:fixed"} {
			start := time.Now()
			var once sync.Once
			var bLock func() (bool, error)
			// The pause: before A's deleting command, A's lock expires and
			// B takes it.
			pause := hook{key: key, before: func(_ context.Context, cmd redis.Cmder) {
				if deletes(cmd) {
					once.Do(func() { expireAndRetake(t, rdb, key, start, bLock) })
				}
			}}
			rdbA := be.v9(t, pause)
			var unlock func(context.Context) error
			if i == 0 {
				a, b := &bugctd.Mutex{RDB: rdbA, Key: key, Token: "A", TTL: shortTTL}, &bugctd.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				must(a.TryLock(ctx))(t)
				bLock, unlock = func() (bool, error) { return b.TryLock(ctx) }, a.Unlock
			} else {
				a, b := &fixctd.Mutex{RDB: rdbA, Key: key, Token: "A", TTL: shortTTL}, &fixctd.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				must(a.TryLock(ctx))(t)
				bLock, unlock = func() (bool, error) { return b.TryLock(ctx) }, a.Unlock
			}
			if err := unlock(ctx); err != nil {
				t.Fatal(err)
			}
			fired := false
			once.Do(func() { fired = true })
			if fired {
				t.Fatal("Unlock sent no delete; the pause never ran")
			}
			after[i] = get(t, rdb, key)
		}
		if after[0] != "(no key)" {
			t.Errorf("buggy: key now %q; want B's lock deleted", after[0])
		}
		if after[1] != "B" {
			t.Errorf("fixed: key now %q; want B's lock kept", after[1])
		}
		record(t, "3b", be.name,
			"A's GET sees its token, the pause lets B take the lock, A's DEL deletes B's lock",
			"the compare and the delete are one script: after the same pause it deletes nothing; B's lock survives")
	})
}

// TestProofPrefixDel: the owner check by prefix (3b2). A's GET sees a
// value that starts with A's prefix; before A's deleting command A's lock
// expires and B (another prefix) takes it. The buggy DEL deletes B's lock;
// the fixed script compares the prefix on the server and deletes nothing.
// Without the pause, the fixed Unlock still deletes A's own lock.
func TestProofPrefixDel(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		type locker interface {
			TryLock(context.Context, string) (bool, error)
			Unlock(context.Context, string) error
		}
		var after [2]string
		for i, key := range []string{"lock:proof3b2:buggy", "lock:proof3b2:fixed"} {
			start := time.Now()
			var once sync.Once
			var b locker
			pause := hook{key: key, before: func(_ context.Context, cmd redis.Cmder) {
				if deletes(cmd) {
					once.Do(func() { expireAndRetake(t, rdb, key, start, func() (bool, error) { return b.TryLock(ctx, key) }) })
				}
			}}
			rdbA := be.v9(t, pause)
			var a locker
			if i == 0 {
				a, b = &bugprefix.Locker{RDB: rdbA, Owner: "A:", TTL: shortTTL}, &bugprefix.Locker{RDB: rdb, Owner: "B:", TTL: longTTL}
			} else {
				a, b = &fixprefix.Locker{RDB: rdbA, Owner: "A:", TTL: shortTTL}, &fixprefix.Locker{RDB: rdb, Owner: "B:", TTL: longTTL}
			}
			if !must(a.TryLock(ctx, key))(t) {
				t.Fatal("A did not get the lock")
			}
			if err := a.Unlock(ctx, key); err != nil {
				t.Fatal(err)
			}
			fired := false
			once.Do(func() { fired = true })
			if fired {
				t.Fatal("Unlock sent no delete; the pause never ran")
			}
			after[i] = get(t, rdb, key)
		}
		if after[0] != "(no key)" {
			t.Errorf("buggy: key now %q; want B's lock deleted", after[0])
		}
		if !strings.HasPrefix(after[1], "B:") {
			t.Errorf("fixed: key now %q; want B's lock kept", after[1])
		}
		// No race: the fixed Unlock releases its own lock.
		key := "lock:proof3b2:own"
		a := &fixprefix.Locker{RDB: rdb, Owner: "A:", TTL: longTTL}
		if !must(a.TryLock(ctx, key))(t) {
			t.Fatal("A did not get the free lock")
		}
		if err := a.Unlock(ctx, key); err != nil {
			t.Fatal(err)
		}
		if v := get(t, rdb, key); v != "(no key)" {
			t.Errorf("fixed: after A's own Unlock the key holds %q; want it deleted", v)
		}
		record(t, "3b2", be.name,
			"A's GET sees its prefix, the pause lets B take the lock, A's DEL deletes B's lock",
			"the prefix compare and the delete are one script: after the same pause it deletes nothing; B's lock survives, and without the pause A's own lock is deleted")
	})
}

// --- 3e. check-then-set acquire (LV107) ---

// TestProofCheckThenSet: A's first command on the key is answered, then,
// before A goes on, B runs its whole TryLock. The buggy TryLock's first
// command is the GET: it found nothing, B takes the lock, and A's plain
// SET overwrites B's: both report the lock taken. The fixed TryLock's
// first command is the SET NX itself: A holds the lock before B tries,
// and B is refused.
func TestProofCheckThenSet(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		type result struct{ a, b bool }
		var got [2]result
		for i, key := range []string{"lock:proof3e:buggy", "lock:proof3e:fixed"} {
			var once sync.Once
			var bTry func() (bool, error)
			var bGot bool
			pause := hook{key: key, after: func(context.Context, redis.Cmder) {
				once.Do(func() { bGot = must(bTry())(t) })
			}}
			rdbA := be.v9(t, pause)
			var aTry func(context.Context) (bool, error)
			if i == 0 {
				a, b := &bugcts.Mutex{RDB: rdbA, Key: key, Token: "A", TTL: longTTL}, &bugcts.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				aTry, bTry = a.TryLock, func() (bool, error) { return b.TryLock(ctx) }
			} else {
				a, b := &fixcts.Mutex{RDB: rdbA, Key: key, Token: "A", TTL: longTTL}, &fixcts.Mutex{RDB: rdb, Key: key, Token: "B", TTL: longTTL}
				aTry, bTry = a.TryLock, func() (bool, error) { return b.TryLock(ctx) }
			}
			aGot := must(aTry(ctx))(t)
			fired := false
			once.Do(func() { fired = true })
			if fired {
				t.Fatal("TryLock sent no command on the key; the pause never ran")
			}
			got[i] = result{aGot, bGot}
			if v := get(t, rdb, key); i == 1 && v != "A" {
				t.Errorf("fixed: key now %q; want A's lock", v)
			}
		}
		if got[0] != (result{true, true}) {
			t.Errorf("buggy: A took it %v, B took it %v; want both (two holders)", got[0].a, got[0].b)
		}
		if got[1] != (result{true, false}) {
			t.Errorf("fixed: A took it %v, B took it %v; want A only", got[1].a, got[1].b)
		}
		record(t, "3e", be.name,
			"A's GET finds the key missing, B takes the lock in the pause, A's SET overwrites it: both TryLocks report the lock taken",
			"A's first command is the SET NX: A takes the lock, B's TryLock in the same pause is refused; one holder")
	})
}

// --- 4. renewing another owner's lock (LV203) ---

func TestProofUnsafeRenew(t *testing.T) {
	t.Parallel()
	const ttlB, renewA = 10 * time.Second, time.Hour
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		var after [2]int64
		for i, key := range []string{"lock:proof4:buggy", "lock:proof4:fixed"} {
			start := time.Now()
			var refresh func(context.Context) error
			if i == 0 {
				a, b := &bugrenew.Mutex{RDB: rdb, Key: key, Token: "A", TTL: shortTTL}, &bugrenew.Mutex{RDB: rdb, Key: key, Token: "B", TTL: ttlB}
				must(a.TryLock(ctx))(t)
				expireAndRetake(t, rdb, key, start, func() (bool, error) { return b.TryLock(ctx) })
				a.TTL, refresh = renewA, a.Refresh
			} else {
				a, b := &fixrenew.Mutex{RDB: rdb, Key: key, Token: "A", TTL: shortTTL}, &fixrenew.Mutex{RDB: rdb, Key: key, Token: "B", TTL: ttlB}
				must(a.TryLock(ctx))(t)
				expireAndRetake(t, rdb, key, start, func() (bool, error) { return b.TryLock(ctx) })
				a.TTL, refresh = renewA, a.Refresh
			}
			if err := refresh(ctx); err != nil {
				t.Fatal(err)
			}
			if v := get(t, rdb, key); v != "B" {
				t.Fatalf("the lock holds %q, want B's", v)
			}
			after[i] = pttl(t, rdb, key)
		}
		if after[0] <= ttlB.Milliseconds() {
			t.Errorf("buggy: B's PTTL %d after A's renewal, want about %d", after[0], renewA.Milliseconds())
		}
		if after[1] <= 0 || after[1] > ttlB.Milliseconds() {
			t.Errorf("fixed: B's PTTL %d after A's renewal, want 0 < PTTL <= %d", after[1], ttlB.Milliseconds())
		}
		record(t, "4", be.name,
			fmt.Sprintf("A's late renewal (%s) extends B's lock: B's TTL becomes %s instead of ≤ %s", approx(renewA), approx(time.Duration(after[0])*time.Millisecond), approx(ttlB)),
			fmt.Sprintf("A's late renewal changes nothing: B's TTL stays ≤ %s", approx(ttlB)))
	})
}

// --- 5. TTL units (LV104) ---

func TestProofTTLUnit(t *testing.T) {
	t.Parallel()
	const ttl, extendBy = 30 * time.Second, 5 * time.Minute
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, admin := context.Background(), be.v9(t)
		// short reports the expiry the acquire sent (its SET options), its
		// PTTL right after, and whether a second caller takes the lock
		// 20 ms later.
		short := func(key string, acquire func(*redis.Client) (bool, error)) (sent string, left int64, taken bool) {
			rdb := be.v9(t, hook{key: key, before: func(_ context.Context, cmd redis.Cmder) {
				if cmd.Name() == "set" {
					sent = setExpiry(cmd.Args())
				}
			}})
			if !must(acquire(rdb))(t) {
				t.Fatalf("%s: could not take a free lock", key)
			}
			left = pttl(t, admin, key)
			time.Sleep(20 * time.Millisecond)
			return sent, left, must(admin.SetNX(ctx, key, "second", ttl).Result())(t)
		}
		const lost = "the client sends SET … PX 1: the lock lives 1 ms (PTTL ≤ 1, or gone, right after the acquire) and a second caller takes it 20 ms later"
		const held = "the client sends SET … EX 30: PTTL ≈ 30s; a second caller is refused"
		check := func(id, bugSent string, bugTTL int64, bugTaken bool, fixSent string, fixTTL int64, fixTaken bool, fixText string) {
			t.Helper()
			if bugSent != "px 1" || bugTTL == -1 || bugTTL > 1 || !bugTaken {
				t.Errorf("%s buggy: sent %q, PTTL %d, taken by a second caller %v; want px 1, ≤ 1 ms and taken", id, bugSent, bugTTL, bugTaken)
			}
			if fixSent != "ex 30" || fixTTL < ttl.Milliseconds()-5000 || fixTTL > ttl.Milliseconds() || fixTaken {
				t.Errorf("%s fixed: sent %q, PTTL %d, taken by a second caller %v; want ex 30, ≈ %d and refused", id, fixSent, fixTTL, fixTaken, ttl.Milliseconds())
			}
			record(t, id, be.name, lost, fixText)
		}

		// 5a: no automatic fix; the message's own rewrite.
		bs, bt, bk := short("lock:proof5a:buggy", func(rdb *redis.Client) (bool, error) {
			return bugttl.AcquireUntyped(ctx, rdb, "lock:proof5a:buggy", "A")
		})
		fs, ft, fk := short("lock:proof5a:fixed", func(rdb *redis.Client) (bool, error) {
			return rdb.SetNX(ctx, "lock:proof5a:fixed", "A", 30*time.Second).Result()
		})
		check("5a", bs, bt, bk, fs, ft, fk, "no automatic fix (seconds or milliseconds is the author's call); the rewrite the message names, `30 * time.Second`: "+held)

		// 5b
		bs, bt, bk = short("lock:proof5b:buggy", func(rdb *redis.Client) (bool, error) {
			return bugttl.AcquireSeconds(ctx, rdb, "lock:proof5b:buggy", "A", ttl)
		})
		fs, ft, fk = short("lock:proof5b:fixed", func(rdb *redis.Client) (bool, error) {
			return fixttl.AcquireSeconds(ctx, rdb, "lock:proof5b:fixed", "A", ttl)
		})
		check("5b", bs, bt, bk, fs, ft, fk, held)

		rdb := admin
		// 5c: a script argument.
		var got [2]int64
		for i, key := range []string{"lock:proof5c:buggy", "lock:proof5c:fixed"} {
			must(rdb.SetNX(ctx, key, "A", ttl).Result())(t)
			extend := bugttl.Extend
			if i == 1 {
				extend = fixttl.Extend
			}
			if n := must(extend(ctx, rdb, key, "A", extendBy))(t); n != 1 {
				t.Fatalf("%s: Extend returned %d, want 1", key, n)
			}
			got[i] = pttl(t, rdb, key)
		}
		years := float64(got[0]) / float64((365*24*time.Hour + 6*time.Hour).Milliseconds())
		if years < 9 {
			t.Errorf("5c buggy: PTTL %d ms, want about %d (years)", got[0], extendBy.Nanoseconds())
		}
		if got[1] < extendBy.Milliseconds()-5000 || got[1] > extendBy.Milliseconds() {
			t.Errorf("5c fixed: PTTL %d ms, want ≈ %d", got[1], extendBy.Milliseconds())
		}
		record(t, "5c", be.name,
			fmt.Sprintf("extending by %s sends %d (nanoseconds) to PEXPIRE: PTTL ≈ %.1f years", approx(extendBy), extendBy.Nanoseconds(), years),
			fmt.Sprintf("PTTL ≈ %s", approx(extendBy)))
	})
}

// setExpiry is the expiry option of a SET command's arguments, lower
// case: "px 1", "ex 30", or "" for none.
func setExpiry(args []any) string {
	for i := 3; i+1 < len(args); i++ {
		if o, ok := args[i].(string); ok {
			switch o = strings.ToLower(o); o {
			case "px", "ex", "pxat", "exat":
				return fmt.Sprintf("%s %v", o, args[i+1])
			}
		}
	}
	return ""
}

// --- 6. acquire result read wrong (LV105; redigo's nil reply) ---

func TestProofAcquireResult(t *testing.T) {
	t.Parallel()
	eachRedis(t, func(t *testing.T, be backend) {
		ctx, rdb := context.Background(), be.v9(t)
		const key = "lock:proof6"
		must(rdb.SetNX(ctx, key, "A", longTTL).Result())(t)
		bug := must(bugacq.TryAcquire(ctx, rdb, key, "B", longTTL))(t)
		fix := must(fixacq.TryAcquire(ctx, rdb, key, "B", longTTL))(t)
		if !bug {
			t.Errorf("buggy: TryAcquire reported %v while A holds the lock; want true (the bug)", bug)
		}
		if fix {
			t.Errorf("fixed: TryAcquire reported %v while A holds the lock; want false", fix)
		}
		if v := get(t, rdb, key); v != "A" {
			t.Fatalf("the lock holds %q, want A's", v)
		}
		record(t, "6a", be.name,
			"reports the lock taken (true, nil) while A holds it: the caller enters the critical section",
			"reports busy (false, nil)")

		redigoAcquireResult(t, be)
	})
}
