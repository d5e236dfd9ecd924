package ttlunit

import "testing"

func TestArgUse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		argv int
		want luaUse
	}{
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`, 2, usesMillis},
		{`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`, 1, 0},
		{`return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))`, 3, usesMillis},
		{`return redis.call("EXPIRE", KEYS[1], ARGV[2])`, 2, usesSeconds},
		{`return redis.call("setex", KEYS[1], ARGV[2], ARGV[1])`, 2, usesSeconds},
		{`return redis.call("psetex", KEYS[1], ARGV[2], ARGV[1])`, 2, usesMillis},
		{`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`, 2, usesMillis},
		{`return redis.call("set", KEYS[1], ARGV[1], "ex", ARGV[2], "nx")`, 2, usesSeconds},
		{`return redis.call("set", KEYS[1], ARGV[1], "PXAT", ARGV[2])`, 2, usesAt},
		{`return redis.call("pexpireat", KEYS[1], ARGV[2])`, 2, usesAt},
		{"local ttl = tonumber(ARGV[2])\nreturn redis.call('pexpire', KEYS[1], ttl)", 2, usesMillis},
		{"local ttl = ARGV[2]; return redis.call('expire', KEYS[1], ttl)", 2, usesSeconds},
		{"local ttl = ARGV[2] if ttl then return redis.call('pexpire', KEYS[1], ttl) end", 2, usesMillis},
		// The script converts the unit itself.
		{`return redis.call("pexpire", KEYS[1], tonumber(ARGV[2]) / 1000000)`, 2, 0},
		{"local ttl = ARGV[2] / 1000000\nreturn redis.call('pexpire', KEYS[1], ttl)", 2, 0},
		{"local ttl = ARGV[2] or 30000\nreturn redis.call('pexpire', KEYS[1], ttl)", 2, 0},
		// ARGV[20] is not ARGV[2]; a timeout in another call is not a use.
		{`return redis.call("pexpire", KEYS[1], ARGV[20])`, 2, 0},
		{`redis.call("expire", KEYS[1]) return foo(x, ARGV[2])`, 2, 0},
		{`return redis.call("pexpire", KEYS[1], ARGV[2]) + redis.call("expire", KEYS[2], ARGV[2])`, 2, usesMillis | usesSeconds},
	} {
		if got := argUse(tc.src, tc.argv); got != tc.want {
			t.Errorf("argUse(%q, %d) = %b, want %b", tc.src, tc.argv, got, tc.want)
		}
	}
}
