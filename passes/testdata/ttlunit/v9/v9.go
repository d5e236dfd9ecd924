package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/ttlunit/v9/conf"
)

const lockTTL = 30 // meant as seconds

const typedTTL time.Duration = 45

const (
	shortTTL = 10 * time.Second
	alsoTTL  // repeats 10 * time.Second: has a unit
)

const noTTL = 0

const oneSecond time.Duration = 1_000_000_000 // nanoseconds on purpose

type Config struct {
	LockSeconds int
	TimeoutMs   int64
	TTL         time.Duration
	TTLNanos    int64
}

// Bug: an untyped literal is 30ns.
func literal(ctx context.Context, rdb *redis.Client, key, tok string) (bool, error) {
	return rdb.SetNX(ctx, key, tok, 30).Result() // want `^TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond \(no fix: seconds or milliseconds, the number does not say\)$`
}

// Bug: a named untyped constant.
func namedConst(ctx context.Context, rdb redis.Cmdable, key, tok string) bool {
	return rdb.SetNX(ctx, key, tok, lockTTL).Val() // want `TTL lockTTL is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; declare lockTTL as 30 \* time\.Second or 30 \* time\.Millisecond \(no fix: seconds or milliseconds, the number does not say\)$`
}

// Bug: a typed constant without a unit.
func typedConst(ctx context.Context, rdb *redis.Client, key, tok string) {
	rdb.SetNX(ctx, key, tok, typedTTL) // want `TTL typedTTL is 45ns`
}

// Bug: a conversion is not a unit.
func convertedConst(ctx context.Context, rdb *redis.Client, key, tok string) {
	rdb.SetNX(ctx, key, tok, time.Duration(15)) // want `TTL time\.Duration\(15\) is 15ns`
}

// Bug: an untyped constant from another package (its spelling cannot
// carry a unit).
func importedConst(ctx context.Context, rdb *redis.Client, key, tok string) {
	rdb.SetNX(ctx, key, tok, conf.LockTTL) // want `TTL conf\.LockTTL is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; declare conf\.LockTTL as 30 \* time\.Second or 30 \* time\.Millisecond`
}

// Bug: SetArgs with NX and a bare TTL.
func setArgs(ctx context.Context, rdb redis.UniversalClient, key, tok string) error {
	return rdb.SetArgs(ctx, key, tok, redis.SetArgs{Mode: "NX", TTL: 30}).Err() // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// Bug: a plain write; the key expires at once.
func cacheSet(ctx context.Context, rdb *redis.Client, key string, val []byte) {
	rdb.Set(ctx, key, val, 10) // want `TTL 10 is 10ns \(a time\.Duration counts nanoseconds\), so the key expires within the client's minimum TTL; write 10 \* time\.Second or 10 \* time\.Millisecond`
}

// Bug: SETEX rounds 60ns up to 1 s.
func setEx(ctx context.Context, rdb *redis.Client, key string) {
	rdb.SetEx(ctx, key, "v", 60) // want `TTL 60 is 60ns`
}

// Bug: PEXPIRE with 500 is 500ns, not 500 ms.
func pexpire(ctx context.Context, rdb *redis.Client, key string) {
	rdb.PExpire(ctx, key, 500) // want `TTL 500 is 500ns \(a time\.Duration counts nanoseconds\), so PExpire sets the client's shortest TTL, or deletes the key; write 500 \* time\.Second or 500 \* time\.Millisecond`
}

// Bug: EXPIRE with 30ns sends EXPIRE key 1.
func expireBare(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Expire(ctx, key, 30000) // want `TTL 30000 is 30µs \(a time\.Duration counts nanoseconds\), so Expire sets the client's shortest TTL, or deletes the key; write 30000 \* time\.Second or 30000 \* time\.Millisecond`
}

// Bug: in a transaction too.
func inTx(ctx context.Context, rdb *redis.Client, key, tok string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, tok, 20) // want `TTL 20 is 20ns`
		return nil
	})
}

// Bug: a local variable with a single unitless value.
func localVar(ctx context.Context, rdb *redis.Client, key, tok string) {
	ttl := time.Duration(20)
	rdb.SetNX(ctx, key, tok, ttl) // want `TTL ttl is 20ns`
}

// Bug: seconds from a variable, converted without a unit.
func fromVar(ctx context.Context, rdb *redis.Client, key, tok string, seconds int) {
	rdb.SetNX(ctx, key, tok, time.Duration(seconds)) // want `^TTL time\.Duration\(seconds\) reads seconds, a count of seconds, as nanoseconds \(about 1 ms\); write time\.Duration\(seconds\) \* time\.Second$`
}

// Bug: seconds from a struct field.
func fromField(ctx context.Context, rdb *redis.Client, cfg *Config, key, tok string) {
	rdb.SetArgs(ctx, key, tok, redis.SetArgs{Mode: "NX", TTL: time.Duration(cfg.LockSeconds)}) // want `TTL time\.Duration\(cfg\.LockSeconds\) reads cfg\.LockSeconds, a count of seconds, as nanoseconds`
}

// Bug: milliseconds from a field, through a local variable.
func fromFieldVar(ctx context.Context, rdb *redis.Client, cfg Config, key string) {
	ttl := time.Duration(cfg.TimeoutMs)
	rdb.PExpire(ctx, key, ttl) // want `TTL ttl reads cfg\.TimeoutMs, a count of milliseconds, as nanoseconds \(about 1 ms\); write time\.Duration\(cfg\.TimeoutMs\) \* time\.Millisecond$`
}

// Bug, no fix: the name does not say what the count is in.
func unknownUnit(ctx context.Context, rdb *redis.Client, key, tok string, expire int64) {
	rdb.SetNX(ctx, key, tok, time.Duration(expire)) // want `^TTL time\.Duration\(expire\) reads expire as nanoseconds, so a count of seconds becomes about 1 ms; multiply by its unit, e\.g\. time\.Duration\(expire\) \* time\.Second \(no fix: expire does not say its unit\)$`
	rdb.Expire(ctx, key, time.Duration(expire+1))   // want `no fix: expire does not say its unit`
}

// Silent: a function of the package that computes its result in
// nanoseconds (a session timeout read as minutes and scaled); the
// conversion of its result carries no unit bug. A function that returns
// a plain count is still reported.
func sessionTimeout(fallback int64, minutes int64) int64 {
	timeout := fallback
	if minutes > 0 {
		timeout = minutes * int64(time.Minute)
	}
	return timeout
}

func lockTimeout(fallback int64) int64 {
	if fallback > 0 {
		return fallback
	}
	return 30
}

func computedNanos(ctx context.Context, rdb *redis.Client, key, tok string, fallback int64) {
	rdb.SetNX(ctx, key, tok, time.Duration(sessionTimeout(fallback, 30)))
	rdb.SetNX(ctx, key, tok, time.Duration(lockTimeout(fallback))) // want `reads lockTimeout\(fallback\) as nanoseconds.*\(no fix: fallback does not say its unit\)$`
}

// Silent: a field the package assigns in nanoseconds elsewhere (a session
// store scaling its configured seconds) keeps its unit when converted. A
// field assigned a count of milliseconds, or never assigned, is still
// reported.
type sessionStore struct {
	maxlifetime int64
	waitMs      int64
	lockSecs    int64
	idleTTL     int64
}

func (s *sessionStore) configure(n int64, d time.Duration) {
	s.maxlifetime = n * int64(time.Second)
	s.waitMs = int64(d / time.Millisecond)
}

func newSessionStore(d time.Duration) *sessionStore {
	return &sessionStore{idleTTL: int64(d)}
}

var defaultLease = 30 * int64(time.Second)

func fieldNanos(ctx context.Context, rdb *redis.Client, s *sessionStore, key, tok string) {
	rdb.Set(ctx, key, tok, time.Duration(s.maxlifetime))
	rdb.Set(ctx, key, tok, time.Duration(s.idleTTL))
	rdb.SetNX(ctx, key, tok, time.Duration(defaultLease))
	rdb.PExpire(ctx, key, time.Duration(s.waitMs))      // want `reads s\.waitMs, a count of milliseconds`
	rdb.SetNX(ctx, key, tok, time.Duration(s.lockSecs)) // want `reads s\.lockSecs, a count of seconds`
}

// Bug: the last word of the name is the unit (leaseMinutes, ttl_sec).
func namedUnits(ctx context.Context, rdb *redis.Client, key, tok string, leaseMinutes, ttl_sec int) {
	rdb.SetNX(ctx, key, tok, time.Duration(leaseMinutes)) // want `reads leaseMinutes, a count of minutes, as nanoseconds \(about 1 ms\); write time\.Duration\(leaseMinutes\) \* time\.Minute$`
	rdb.Expire(ctx, key, time.Duration(ttl_sec))          // want `reads ttl_sec, a count of seconds`
}

// Bug, no fix: a float count would be truncated before the multiplication.
func floatSeconds(ctx context.Context, rdb *redis.Client, key, tok string, lockSeconds float64) {
	rdb.SetNX(ctx, key, tok, time.Duration(lockSeconds)) // want `reads lockSeconds, a count of seconds`
}

// Bug: ttl.Seconds() read as nanoseconds; the fix passes ttl.
func durationMethod(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	rdb.SetNX(ctx, key, tok, time.Duration(ttl.Seconds())) // want `^TTL time\.Duration\(ttl\.Seconds\(\)\) reads ttl\.Seconds\(\) \(a count of seconds\) as nanoseconds, about a billion times too short; pass ttl itself$`
}

// Bug: the same through int64(…); the fix passes the field.
func durationMethodField(ctx context.Context, rdb *redis.Client, cfg *Config, key string) {
	rdb.Expire(ctx, key, time.Duration(int64(cfg.TTL.Milliseconds()))) // want `TTL time\.Duration\(int64\(cfg\.TTL\.Milliseconds\(\)\)\) reads int64\(cfg\.TTL\.Milliseconds\(\)\) \(a count of milliseconds\) as nanoseconds, about a million times too short; pass cfg\.TTL itself`
}

// Bug: an absolute time as a TTL.
func unixNano(ctx context.Context, rdb *redis.Client, key, tok string, deadline time.Time) {
	rdb.SetNX(ctx, key, tok, time.Duration(deadline.UnixNano())) // want `^TTL time\.Duration\(deadline\.UnixNano\(\)\) is computed from deadline\.UnixNano\(\), a point in time, not a length of time; pass time\.Until\(deadline\), or use ExpireAt or PXAT \(no fix: not built for a TTL computed from a point in time\)$`
}

func unixSeconds(ctx context.Context, rdb *redis.Client, key string, deadline time.Time) {
	rdb.Expire(ctx, key, time.Duration(deadline.Unix())*time.Second) // want `is computed from deadline\.Unix\(\)`
}

func nowPlus(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Set(ctx, key, "v", time.Duration(time.Now().Unix()+30)*time.Second) // want `is computed from time\.Now\(\)\.Unix\(\)`
}

func unixMinus(ctx context.Context, rdb *redis.Client, key string, deadline time.Time) {
	rdb.PExpire(ctx, key, time.Duration(deadline.UnixMilli()-500)*time.Millisecond) // want `is computed from deadline\.UnixMilli\(\)`
}

func unixVar(ctx context.Context, rdb *redis.Client, key string) {
	exp := time.Now().Add(time.Minute).Unix()
	rdb.Expire(ctx, key, time.Duration(exp)*time.Second) // want `is computed from time\.Now\(\)\.Add\(time\.Minute\)\.Unix\(\)`
}

// Bug: EXPIRE with 0 or less deletes the key.
func expireZero(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Expire(ctx, key, 0) // want `^Expire with a TTL of 0 deletes key at once, not "no expiry"; call Del or Persist, or pass the TTL you meant \(no fix: what was meant is not known\)$`
}

func expireNegative(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Expire(ctx, key, -1) // want `Expire with a TTL of -1 deletes key at once`
}

func pexpireNamedZero(ctx context.Context, rdb *redis.Client, m *Config) {
	rdb.PExpire(ctx, "lock:job", noTTL) // want `PExpire with a TTL of noTTL \(0\) deletes "lock:job" at once`
}

func expireNX(ctx context.Context, rdb *redis.Client, key string) {
	rdb.ExpireNX(ctx, key, -2*time.Second) // want `ExpireNX with a TTL of -2 \* time\.Second \(-2s\) deletes key`
}

// Silent: durations with units.
func withUnits(ctx context.Context, rdb *redis.Client, cfg *Config, key, tok string, n int, ttl time.Duration, deadline time.Time, start int64) {
	rdb.SetNX(ctx, key, tok, 30*time.Second)
	rdb.SetNX(ctx, key, tok, time.Duration(n)*time.Second)
	rdb.SetNX(ctx, key, tok, time.Millisecond*time.Duration(cfg.TimeoutMs))
	rdb.SetNX(ctx, key, tok, ttl)
	rdb.SetNX(ctx, key, tok, cfg.TTL)
	rdb.SetNX(ctx, key, tok, shortTTL)
	rdb.SetNX(ctx, key, tok, alsoTTL)
	rdb.SetNX(ctx, key, tok, 500*time.Microsecond) // sub-millisecond, but on purpose
	rdb.SetNX(ctx, key, tok, oneSecond)
	rdb.SetNX(ctx, key, tok, 1_000_000_000)
	rdb.SetNX(ctx, key, tok, 5_000_000) // 5 ms: ≥ 1 ms is sent as written
	rdb.SetNX(ctx, key, tok, conf.Grace)
	rdb.SetNX(ctx, key, tok, time.Until(deadline))
	rdb.SetNX(ctx, key, tok, deadline.Sub(time.Now()))
	rdb.SetNX(ctx, key, tok, time.Duration(deadline.Unix()-time.Now().Unix())*time.Second)
	rdb.SetNX(ctx, key, tok, time.Duration(deadline.UnixNano()-start)) // start may be a point in time too
	rdb.SetNX(ctx, key, tok, time.Duration(float64(ttl)*0.9))
	rdb.SetNX(ctx, key, tok, time.Duration(ttl.Nanoseconds()))
	rdb.SetNX(ctx, key, tok, time.Duration(cfg.TTLNanos))
	rdb.SetNX(ctx, key, tok, time.Duration(ttl.Milliseconds())*time.Millisecond)
	rdb.Expire(ctx, key, time.Minute)
	rdb.PExpire(ctx, key, ttl)
	rdb.ExpireAt(ctx, key, deadline)
	rdb.Set(ctx, key, "v", time.Duration(time.Now().Unix()%60)*time.Second)
}

// Silent: 0 means "no expiry" for SET (normal for a cache), and for SETNX
// it is another check's business; KeepTTL is -1.
func zeros(ctx context.Context, rdb *redis.Client, key, tok string) {
	rdb.Set(ctx, key, "v", 0)
	rdb.Set(ctx, key, "v", redis.KeepTTL)
	rdb.SetNX(ctx, key, tok, 0)
	rdb.SetNX(ctx, key, tok, redis.KeepTTL)
	rdb.SetArgs(ctx, key, tok, redis.SetArgs{Mode: "NX", KeepTTL: true})
}

// Silent: suppressed in source, with a reason.
func suppressed(ctx context.Context, rdb *redis.Client, key, tok string) {
	//lockvet:ignore LV104 -- test fixture: a 1 ms lock on purpose
	rdb.SetNX(ctx, key, tok, 1)
	rdb.Expire(ctx, key, 0) //lockvet:ignore ttlunit -- deleting through EXPIRE 0 on purpose
}

// Silent: a variable assigned more than once, and one of a custom type.
type Millis int64

func notSingle(ctx context.Context, rdb *redis.Client, key, tok string, slow bool, d Millis) {
	ttl := time.Duration(20)
	if slow {
		ttl = time.Minute
	}
	rdb.SetNX(ctx, key, tok, ttl)
	rdb.SetNX(ctx, key, tok, time.Duration(d))
}
