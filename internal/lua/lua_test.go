package lua

import "testing"

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Script
	}{
		{UnlockSrc, Script{Kind: CompareAndDelete, TokenArg: 1}},
		{RenewSrc, Script{Kind: CompareAndExpire, TokenArg: 1, TTLArg: 2, TTLMillis: true}},
		{GetSetSrc, Script{Kind: GetSetExpire, TTLArg: 2, TTLMillis: true}},
		{`local v = redis.call('GETSET', KEYS[1], ARGV[1]); redis.call('EXPIRE', KEYS[1], ARGV[2]); return v`, Script{Kind: GetSetExpire, TTLArg: 2}},
		{`if redis.call('GET', KEYS[1]) == ARGV[1] then
			return redis.call('DEL', KEYS[1])
		end
		return 0`, Script{Kind: CompareAndDelete, TokenArg: 1}},
		{`if ARGV[2] == redis.call("get",KEYS[1]) then return redis.call("unlink",KEYS[1]) end`, Script{Kind: CompareAndDelete, TokenArg: 2}},
		{`local v = redis.call("get", KEYS[1])
		if v == ARGV[1] then return redis.call("del", KEYS[1]) end
		return 0`, Script{Kind: CompareAndDelete, TokenArg: 1}},
		{`if redis.call("get",KEYS[1]) ~= ARGV[1] then return 0 end
		return redis.call("expire",KEYS[1],ARGV[2])`, Script{Kind: CompareAndExpire, TokenArg: 1, TTLArg: 2}},
		{`if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("pexpire",KEYS[1],tonumber(ARGV[3])) end`, Script{Kind: CompareAndExpire, TokenArg: 1, TTLArg: 3, TTLMillis: true}},
		{`return redis.call("del", KEYS[1])`, Script{Kind: UncheckedDelete}},
		{`return redis.call("pexpire", KEYS[1], ARGV[1])`, Script{Kind: UncheckedExpire, TTLArg: 1, TTLMillis: true}},
		{`return redis.call("incr", KEYS[1])`, Script{Counts: true}},
		{`local n = redis.call('INCRBY', KEYS[1], ARGV[1]) redis.call('expire', KEYS[1], 60) return n`, Script{Kind: UncheckedExpire, Counts: true}},
		{`return redis.call("hincrby", KEYS[1], "n", 1)`, Script{Counts: true}},
		{`return redis.call("incr", KEYS[2])`, Script{}},
		{`local v = redis.call("get", KEYS[1]) return v`, Script{}},
		{UnlockPrefixSrc, Script{Kind: CompareAndDelete, TokenArg: 1, Prefix: true}},
		{`local cur = redis.call('GET', KEYS[1])
		if cur and ARGV[2] == string.sub(cur, 1, #ARGV[2]) then return redis.call('DEL', KEYS[1]) end
		return 0`, Script{Kind: CompareAndDelete, TokenArg: 2, Prefix: true}},
		{`local v = redis.call("get", KEYS[1]) if string.sub(v, 1, #ARGV[1]) == ARGV[2] then return redis.call("del", KEYS[1]) end`, Script{Kind: UncheckedDelete}},
	} {
		if got := Classify(tc.src); got != tc.want {
			t.Errorf("Classify(%q) = %+v, want %+v", tc.src, got, tc.want)
		}
	}
}
