// Package lua classifies the Lua scripts lock code sends to Redis: is a
// script an owner-checked release (compare-and-delete) or renewal
// (compare-and-expire), and which ARGV holds the owner token.
//
// Classification is by the commands a script calls, not by its exact text:
// a script is owner-checked when it reads KEYS[1] with GET and compares the
// result with an ARGV entry (== or ~=, directly or through a local), and it
// deletes (DEL/UNLINK) or expires (PEXPIRE/EXPIRE/PEXPIREAT/EXPIREAT) a key.
package lua

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Kind is what a script does to a lock.
type Kind uint8

const (
	// Other: not recognized as a lock release or renewal.
	Other Kind = iota
	// CompareAndDelete deletes the key only when it holds the token.
	CompareAndDelete
	// CompareAndExpire changes the TTL only when the key holds the token.
	CompareAndExpire
	// UncheckedDelete deletes a key without comparing its value.
	UncheckedDelete
	// UncheckedExpire changes a TTL without comparing the value.
	UncheckedExpire
	// GetSetExpire writes the key and sets its TTL in one step, returning
	// the old value: a GETSET that does not leave the key without a TTL.
	GetSetExpire
)

// Script is a classified script.
type Script struct {
	Kind Kind
	// TokenArg is the 1-based ARGV index compared with the key's value
	// (0 when there is no comparison).
	TokenArg int
	// TTLArg is the 1-based ARGV index passed to the expire command (0 when
	// none or not an ARGV entry), and TTLMillis whether that command takes
	// milliseconds (PEXPIRE/PEXPIREAT).
	TTLArg    int
	TTLMillis bool
	// Counts: the script moves a number stored at KEYS[1] (INCR, INCRBY,
	// DECR, HINCRBY, …): the key is a counter.
	Counts bool
	// Prefix: ARGV[TokenArg] is compared with the start of the key's
	// value (string.sub(v, 1, #ARGV[n]) == ARGV[n]), not the whole value:
	// the owner is whoever writes values that start so (a process).
	Prefix bool
}

// patterns are the expressions Classify matches, compiled at its first
// call rather than when the program starts: go vet starts lockvet once
// per package, most of which have no script.
var patterns = sync.OnceValue(func() (p struct{ getCmpArgv, argvCmpGet, localGet, del, expire, count, getset *regexp.Regexp }) {
	call := `redis\.p?call\(\s*['"]%s['"]\s*,`
	// GET KEYS[1] compared with ARGV[n], in either order, directly.
	p.getCmpArgv = regexp.MustCompile(`(?i)` + strings.ReplaceAll(call, "%s", "get") + `\s*keys\[1\]\s*\)\s*[=~]=\s*argv\[(\d+)\]`)
	p.argvCmpGet = regexp.MustCompile(`(?i)argv\[(\d+)\]\s*[=~]=\s*` + strings.ReplaceAll(call, "%s", "get") + `\s*keys\[1\]\s*\)`)
	// local v = redis.call("get", KEYS[1]) … v == ARGV[n]
	p.localGet = regexp.MustCompile(`(?i)local\s+(\w+)\s*=\s*` + strings.ReplaceAll(call, "%s", "get") + `\s*keys\[1\]\s*\)`)
	p.del = regexp.MustCompile(`(?i)` + strings.ReplaceAll(call, "%s", "(?:del|unlink)"))
	p.expire = regexp.MustCompile(`(?i)` + strings.ReplaceAll(call, "%s", "(p?)expire(?:at)?") + `\s*keys\[\d+\]\s*,\s*(?:argv\[(\d+)\]|tonumber\(\s*argv\[(\d+)\]\s*\))?`)
	p.getset = regexp.MustCompile(`(?i)` + strings.ReplaceAll(call, "%s", "getset") + `\s*keys\[1\]\s*,`)
	p.count = regexp.MustCompile(`(?i)` + strings.ReplaceAll(call, "%s", "h?(?:incr|decr)(?:by)?(?:float)?") + `\s*keys\[1\]\s*[,)]`)
	return p
})

// Classify classifies src.
func Classify(src string) Script {
	var s Script
	p := patterns()
	if m := p.getCmpArgv.FindStringSubmatch(src); m != nil {
		s.TokenArg, _ = strconv.Atoi(m[1])
	} else if m := p.argvCmpGet.FindStringSubmatch(src); m != nil {
		s.TokenArg, _ = strconv.Atoi(m[1])
	} else if m := p.localGet.FindStringSubmatch(src); m != nil {
		v := regexp.QuoteMeta(m[1])
		cmp := regexp.MustCompile(`(?i)\b` + v + `\s*[=~]=\s*argv\[(\d+)\]|argv\[(\d+)\]\s*[=~]=\s*` + v + `\b`)
		if c := cmp.FindStringSubmatch(src); c != nil {
			n := c[1]
			if n == "" {
				n = c[2]
			}
			s.TokenArg, _ = strconv.Atoi(n)
		} else if n, ok := prefixArg(src, v); ok {
			s.TokenArg, s.Prefix = n, true
		}
	}
	s.Counts = p.count.MatchString(src)
	checked := s.TokenArg > 0
	switch {
	case !checked && p.getset.MatchString(src) && p.expire.MatchString(src) && !p.del.MatchString(src):
		s.expireArg(p.expire.FindStringSubmatch(src))
		s.Kind = GetSetExpire
	case p.del.MatchString(src):
		s.Kind = UncheckedDelete
		if checked {
			s.Kind = CompareAndDelete
		}
	case p.expire.MatchString(src):
		s.expireArg(p.expire.FindStringSubmatch(src))
		s.Kind = UncheckedExpire
		if checked {
			s.Kind = CompareAndExpire
		}
	default:
		s.TokenArg = 0
	}
	return s
}

// prefixArg finds string.sub(v, 1, #ARGV[n]) == ARGV[n] (either side),
// the compare of the start of the value in the local v with ARGV[n].
func prefixArg(src, v string) (int, bool) {
	sub := `string\.sub\(\s*` + v + `\s*,\s*1\s*,\s*#\s*argv\[(\d+)\]\s*\)`
	re := regexp.MustCompile(`(?i)` + sub + `\s*==\s*argv\[(\d+)\]|argv\[(\d+)\]\s*==\s*` + sub)
	m := re.FindStringSubmatch(src)
	if m == nil {
		return 0, false
	}
	a, b := m[1], m[2]
	if a == "" {
		a, b = m[4], m[3]
	}
	if a != b {
		return 0, false
	}
	n, err := strconv.Atoi(a)
	return n, err == nil
}

// expireArg reads the match of the expire pattern: PEXPIRE or EXPIRE, and
// the ARGV entry it takes.
func (s *Script) expireArg(m []string) {
	s.TTLMillis = strings.EqualFold(m[1], "p")
	n := m[2]
	if n == "" {
		n = m[3]
	}
	s.TTLArg, _ = strconv.Atoi(n)
}

// Canonical scripts lockvet's fixes insert (the forms the Redis
// documentation and the common lock libraries use). ARGV[1] is the owner
// token; for renew, ARGV[2] is the TTL in milliseconds.
const (
	UnlockSrc = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	RenewSrc  = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`
	// UnlockPrefixSrc deletes the key only while its value starts with
	// ARGV[1]: the release of a lock whose owner is a prefix of the value
	// (host and process id, then a per-acquire part), checked in one step.
	UnlockPrefixSrc = `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	// GetSetSrc is GETSET with the TTL (ARGV[2], in milliseconds) set in
	// the same step: it replies the old value, or nil, as GETSET does.
	GetSetSrc = `local old = redis.call("getset", KEYS[1], ARGV[1]) redis.call("pexpire", KEYS[1], ARGV[2]) return old`
)
