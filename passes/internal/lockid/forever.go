package lockid

import (
	"slices"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/redisops"
)

// This file answers LV103's question for every check that needs it: does
// an acquire take a lock that never expires? LV103 reports such a lock at
// its acquire; LV201 reports its bare DEL, which the TTL LV103 asks for
// would turn into a delete of another holder's lock.

// Forever lists the releases that show that a takes a lock with no TTL
// that nothing in the package expires, strongest evidence first; nil when
// a sets a TTL, when something may give its key one, when the package
// does not release it, or when the key is not a lock (Role). An acquire
// in a _test.go file or inside an inferred helper (reported at the
// helper's calls) lists nothing.
//
// Only releases that count as evidence are listed: one in a's function,
// through a helper a's function calls, in a counterpart (Lock/Unlock), a
// compare-and-delete script, or a delete of a key of the same shape in
// another function when a's key, a's function, or the delete's function
// is named like a lock (a cache entry filled with SETNX and invalidated
// elsewhere is no lock). Releases in _test.go files are fixture cleanup.
func (l *Locks) Forever(a *redisops.Op) []Release {
	if a.Kind != redisops.Acquire || !a.NoTTL || a.Key() == nil || a.Func == nil || l.inTest(a) || a.InHelper() {
		return nil
	}
	type ranked struct {
		r    Release
		rank int
	}
	var rels []ranked
	for _, r := range l.Releases(a) {
		if l.inTest(r.Op) {
			continue
		}
		if n := l.releaseRank(a, r); n > 0 {
			rels = append(rels, ranked{r, n})
		}
	}
	if len(rels) == 0 || l.expired(a) || l.Role(a) != RoleLock {
		return nil
	}
	slices.SortStableFunc(rels, func(x, y ranked) int { return y.rank - x.rank })
	out := make([]Release, len(rels))
	for i, r := range rels {
		out[i] = r.r
	}
	return out
}

// releaseRank is how strongly r shows that a's key is a lock released by
// the package: 0 when it does not count.
func (l *Locks) releaseRank(a *redisops.Op, r Release) int {
	switch {
	case r.Evidence == SameFunc:
		return 4
	case r.Evidence == ViaHelper, r.Evidence == Counterpart:
		return 3
	case r.Checked:
		return 2
	case Named(l.pass.TypesInfo, a) || Named(l.pass.TypesInfo, r.Op):
		return 1
	}
	return 0
}

// expired reports whether anything in the package may give a's key a
// TTL: an EXPIRE of it (LV101 reports the non-atomic pair), an acquire or
// a write that sets a TTL, or a script that expires it or that lockvet
// cannot read.
func (l *Locks) expired(a *redisops.Op) bool {
	for _, e := range l.Candidates(a) {
		// Another acquire of the key with a TTL counts too: what it
		// writes expires, and lockvet can't tell the two locks apart.
		if e == a || !(SetsTTL(e) || e.Kind == redisops.Acquire && !e.NoTTL) || l.ownExpire(a, e) {
			continue
		}
		for _, k := range e.Keys {
			if ev, _ := l.Match(a, e, k); ev != 0 {
				return true
			}
		}
	}
	return false
}

// ownExpire reports whether e, an EXPIRE in another function than a, is
// the second step of an acquire of the same key earlier in its own
// function (INCR then EXPIRE in IsLockedTTL): it expires the keys that
// function takes, not those a takes.
func (l *Locks) ownExpire(a, e *redisops.Op) bool {
	if e.Kind != redisops.Expire || e.Func == a.Func || e.Key() == nil {
		return false
	}
	lk := l.Of(e, e.Key())
	return lk != nil && lk.Evidence == SameFunc && lk.Acquire != a
}

// SetsTTL reports whether op may give its key a TTL or extend the one
// it has: an EXPIRE, a write with a positive TTL, or a script that is
// not one of the delete scripts (or whose source is not known).
// Acquires are left out: one that finds the key held writes nothing.
func SetsTTL(op *redisops.Op) bool {
	switch op.Kind {
	case redisops.Expire:
		return true
	case redisops.Write:
		return op.TTL != nil && !op.NonPositiveTTL()
	case redisops.Script:
		if op.ScriptSrc == "" {
			return true
		}
		switch lua.Classify(op.ScriptSrc).Kind {
		case lua.CompareAndDelete, lua.UncheckedDelete:
			return false
		}
		return true
	}
	return false
}
