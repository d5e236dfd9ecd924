// Package lockname reads names as evidence of locking: whether a key or a
// function is named like a lock, and whether two functions are named as the
// two halves of one lock (Lock/Unlock, Acquire/Release, TryLock/Unlock,
// Lock/Refresh, lockJob/unlockJob, …). Names are a weak signal: checks use
// them only together with the operations the functions perform.
package lockname

import (
	"strings"
	"unicode"
)

// Words splits s into lower-case words, at characters that are neither
// letters nor digits, between letters and digits, and at camelCase humps
// (an acronym is one word: HTTPLock is "http", "lock"; lockJob2 is "lock",
// "job", "2").
func Words(s string) []string {
	var words []string
	start := -1
	rs := []rune(s)
	flush := func(i int) {
		if start >= 0 {
			words = append(words, strings.ToLower(string(rs[start:i])))
			start = -1
		}
	}
	for i, r := range rs {
		digit := unicode.IsDigit(r)
		if start >= 0 && digit != unicode.IsDigit(rs[i-1]) {
			flush(i)
		}
		switch {
		case !digit && !unicode.IsLetter(r):
			flush(i)
		case unicode.IsUpper(r):
			// A hump starts a word unless it continues an acronym.
			if start >= 0 && !(unicode.IsUpper(rs[i-1]) && (i+1 >= len(rs) || !unicode.IsLower(rs[i+1]))) {
				flush(i)
			}
			if start < 0 {
				start = i
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(len(rs))
	return words
}

// LockLike reports whether a word of s names a lock: one starting with
// "lock" or "unlock", or "mutex"; for a function name (fn) also "acquire"
// and "release".
func LockLike(s string, fn bool) bool {
	for _, w := range Words(s) {
		switch {
		case strings.HasPrefix(w, "lock"), strings.HasPrefix(w, "unlock"), w == "mutex":
			return true
		case fn && (w == "acquire" || w == "release"):
			return true
		}
	}
	return false
}

// Role is what a function's name says it does with a lock.
type Role uint8

const (
	// NoRole: the name says nothing about a lock.
	NoRole Role = iota
	// Acquires: Lock, TryLock, Acquire, Obtain, AcquireLock, lockJob, …
	Acquires
	// Releases: Unlock, Release, ReleaseLock, DelLock, unlockJob, …
	Releases
	// Renews: Renew, Extend, Refresh, KeepAlive, RenewLock, …
	Renews
)

// filler words a counterpart name may add or drop around its verb.
var filler = map[string]bool{
	"try": true, "get": true, "set": true, "add": true, "do": true, "must": true, "new": true,
	"lock": true, "locks": true, "unlock": true, "acquire": true, "obtain": true, "release": true,
	"renew": true, "extend": true, "refresh": true, "keep": true, "alive": true,
	"del": true, "delete": true, "remove": true, "clear": true, "drop": true, "free": true,
	"redis": true, "distributed": true, "dist": true, "by": true,
}

// Split returns the lock role a function name states and the words that
// remain once the lock vocabulary is dropped ("LockOrder" → Acquires,
// "order"). Two functions are counterparts when one acquires, the other
// releases or renews, and the rest is the same (Counterparts).
func Split(name string) (Role, string) {
	ws := Words(name)
	// "UnLock" is "unlock".
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "un" && ws[i+1] == "lock" {
			ws = append(ws[:i:i], append([]string{"unlock"}, ws[i+2:]...)...)
		}
	}
	has := func(set ...string) bool {
		for _, w := range ws {
			for _, s := range set {
				if w == s {
					return true
				}
			}
		}
		return false
	}
	role := NoRole
	switch {
	case len(ws) == 2 && ws[0] == "is" && ws[1] == "locked":
		// IsLocked, when it takes the lock it asks about (an INCR or a
		// SET NX whose reply it returns), is the acquire half.
		ws, role = nil, Acquires
	case len(ws) > 0 && (ws[0] == "with" || ws[0] == "run"):
		// WithLock, RunLocked: take and release around a callback.
	case has("unlock", "release", "free"), has("del", "delete", "remove", "clear", "drop") && has("lock"):
		role = Releases
	case has("renew", "extend", "refresh") || has("keep") && has("alive"):
		role = Renews
	case has("lock", "acquire", "obtain"):
		role = Acquires
	}
	var rest []string
	for _, w := range ws {
		if !filler[w] {
			rest = append(rest, w)
		}
	}
	return role, strings.Join(rest, " ")
}

// Affinity ranks a counterpart pair (Counterparts) by how plainly the
// names pair: 2 for the usual antonyms (Lock/Unlock, TryLock/Unlock,
// Acquire/Release, Obtain/Release, and a renewal of any of them), 1 for
// the others (Obtain/Unlock, Lock/Release). It is 0 when they are no
// counterparts. Where a release could belong to several acquire helpers,
// the plainest pair wins.
func Affinity(acquire, other string) int {
	if !Counterparts(acquire, other) {
		return 0
	}
	ro, _ := Split(other)
	if ro == Renews {
		return 2
	}
	lockish := func(s string) bool {
		for _, w := range Words(s) {
			if w == "lock" || w == "unlock" || w == "un" {
				return true
			}
		}
		return false
	}
	if lockish(acquire) == lockish(other) {
		return 2
	}
	return 1
}

// Counterparts reports whether acquire and other are named as the two
// halves of one lock: acquire's name acquires, other's releases or renews
// it, and the names agree once the lock vocabulary is dropped
// (Lock/Unlock, TryLock/Unlock, Acquire/Release, Obtain/Release,
// Lock/Refresh, AcquireLock/ReleaseLock, lockJob/unlockJob).
func Counterparts(acquire, other string) bool {
	ra, a := Split(acquire)
	ro, o := Split(other)
	return ra == Acquires && (ro == Releases || ro == Renews) && a == o
}
