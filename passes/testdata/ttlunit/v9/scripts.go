package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const renewLua = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`

var renew = redis.NewScript(renewLua)

var renewSeconds = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("EXPIRE", KEYS[1], ARGV[2])
end
return 0`)

var acquirePX = redis.NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)

var renewLocal = redis.NewScript(`
local ttl = tonumber(ARGV[2])
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ttl)`)

var renewAt = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpireat", KEYS[1], ARGV[2]) end return 0`)

var store = redis.NewScript(`return redis.call("set", KEYS[1], ARGV[1])`)

// Takes nanoseconds on purpose and converts them.
var renewNanos = redis.NewScript(`return redis.call("pexpire", KEYS[1], math.floor(tonumber(ARGV[1]) / 1000000))`)

// Bug: Eval of a PEXPIRE script with a raw Duration; fixed with .Milliseconds().
func evalRenew(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) (int64, error) {
	return rdb.Eval(ctx, renewLua, []string{key}, tok, ttl).Int64() // want `^ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)$`
}

// Bug: a package-level script object run with a field.
type Lock struct {
	rdb redis.Scripter
	key string
	tok string
	ttl time.Duration
}

func (l *Lock) Refresh(ctx context.Context) (bool, error) {
	return renew.Run(ctx, l.rdb, []string{l.key}, l.tok, l.ttl).Bool() // want `l\.ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass l\.ttl\.Milliseconds\(\)$`
}

// Bug: a constant expression needs parentheses.
func renewConst(ctx context.Context, rdb *redis.Client, key, tok string) {
	renew.Run(ctx, rdb, []string{key}, tok, 30*time.Second) // want `pass \(30 \* time\.Second\)\.Milliseconds\(\)$`
}

// Bug: SET … PX ARGV[2], and a local alias of ARGV[2].
func acquireScript(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	acquirePX.Run(ctx, rdb, []string{key}, tok, ttl)  // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
	renewLocal.Run(ctx, rdb, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// Bug: a local script object.
func localScript(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	s := redis.NewScript(renewLua)
	s.Run(ctx, rdb, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw`
}

// Bug, no fix: the script uses seconds; ttl / time.Second would truncate a
// sub-second TTL to 0, which deletes the key.
func renewInSeconds(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	renewSeconds.Run(ctx, rdb, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a billion times too long for EXPIRE/EX; pass int64\(ttl / time\.Second\)$`
}

// Bug, no fix: PEXPIREAT takes a point in time.
func renewAtDeadline(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	renewAt.Run(ctx, rdb, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, not the point in time PEXPIREAT, EXPIREAT, PXAT or EXAT take; pass time\.Now\(\)\.Add\(ttl\)\.UnixMilli\(\)`
}

// Silent: the script is not known here, so what it does with ARGV[2] is
// unknown (it may not read it at all, or convert nanoseconds itself).
func evalSha(ctx context.Context, rdb *redis.Client, sha, key, tok string, ttl time.Duration) {
	rdb.EvalSha(ctx, sha, []string{key}, tok, ttl)
}

func evalUnknown(ctx context.Context, rdb *redis.Client, src, key string, ttl time.Duration) {
	rdb.Eval(ctx, src, []string{key}, ttl+time.Second)
}

// Silent: milliseconds sent as an integer; a script that sets no timeout,
// or converts nanoseconds itself; an argument the script does not pass to
// a timeout; a spread argument list.
func scriptsOK(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration, args []any) {
	renew.Run(ctx, rdb, []string{key}, tok, ttl.Milliseconds())
	rdb.Eval(ctx, renewLua, []string{key}, tok, int64(ttl/time.Millisecond))
	renewSeconds.Run(ctx, rdb, []string{key}, tok, int64(ttl/time.Second))
	store.Run(ctx, rdb, []string{key}, ttl)
	renewNanos.Run(ctx, rdb, []string{key}, ttl)
	renew.Run(ctx, rdb, []string{key}, tok, ttl.Milliseconds(), ttl)
	renew.Run(ctx, rdb, []string{key}, args...)
}
