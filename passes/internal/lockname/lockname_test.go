package lockname

import (
	"strings"
	"testing"
)

func TestLockLike(t *testing.T) {
	for s, want := range map[string]bool{
		"TryLock":        true,
		"lockKey":        true,
		"LOCK_PREFIX":    true,
		"HTTPLock":       true,
		"unlockJob":      true,
		"Mutex":          true,
		"lock:job:%d":    true,
		"block":          false,
		"clock:tick":     false,
		"deadline":       false,
		"user:%d":        false,
		"idem:":          false,
		"releaseNotes":   false, // key words only: "release" counts for functions
		"cacheKey":       false,
		"mutexes":        false,
		"distributedMux": false,
	} {
		if got := LockLike(s, false); got != want {
			t.Errorf("LockLike(%q, key) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"acquireSlot":  true,
		"release":      true,
		"Obtain":       false,
		"requireToken": false,
	} {
		if got := LockLike(s, true); got != want {
			t.Errorf("LockLike(%q, func) = %v, want %v", s, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for s, want := range map[string]string{
		"HTTPLock":    "http lock",
		"lockJob2":    "lock job 2",
		"v2Lock":      "v 2 lock",
		"lock:job:%d": "lock job d",
		"UnLock":      "un lock",
		// Names that say a TTL's unit (LV104) or a renewal (LV203).
		"TimeoutMs":    "timeout ms",
		"TTLSeconds":   "ttl seconds",
		"lock_ttl_sec": "lock ttl sec",
		"ttl30s":       "ttl 30 s",
		"keepAlive":    "keep alive",
		"HTTPRefresh":  "http refresh",
	} {
		if got := strings.Join(Words(s), " "); got != want {
			t.Errorf("Words(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestCounterparts(t *testing.T) {
	for _, tc := range []struct {
		acquire, other string
		want           bool
	}{
		{"Lock", "Unlock", true},
		{"TryLock", "Unlock", true},
		{"Acquire", "Release", true},
		{"Obtain", "Release", true},
		{"Lock", "Refresh", true},
		{"Lock", "Extend", true},
		{"Lock", "Renew", true},
		{"AcquireLock", "ReleaseLock", true},
		{"TryGetLock", "ReleaseLock", true},
		{"lockJob", "unlockJob", true},
		{"LockOrder", "UnLockOrder", true},
		{"GetLock", "DelLock", true},
		{"Lock", "KeepAlive", true},
		{"lockJob", "unlockOrder", false},
		{"lockJob2", "unlockJob2", true},
		{"acquire1", "release2", false}, // numbered helpers pair by number
		{"Unlock", "Lock", false},       // the acquire comes first
		{"Set", "Del", false},
		{"SetNX", "Del", false},
		{"Get", "Release", false},
		{"Lock", "Delete", false},
		{"Lock", "UnlockAll", false},
		{"Block", "Unblock", false},
		{"WithLock", "Release", false}, // takes and releases around a callback
		{"RunLocked", "Unlock", false},
		{"IsLocked", "Unlock", true}, // an IsLocked that takes the lock it asks about
		{"IsLockedTTL", "Unlock", false},
		{"HasBeenLocked", "Unlock", false},
	} {
		if got := Counterparts(tc.acquire, tc.other); got != tc.want {
			t.Errorf("Counterparts(%q, %q) = %v, want %v", tc.acquire, tc.other, got, tc.want)
		}
	}
}

func TestAffinity(t *testing.T) {
	for _, tc := range []struct {
		acquire, other string
		want           int
	}{
		{"Lock", "Unlock", 2},
		{"TryLock", "Unlock", 2},
		{"Acquire", "Release", 2},
		{"AcquireLock", "ReleaseLock", 2},
		{"Obtain", "Release", 2},
		{"Lock", "Refresh", 2},
		{"Obtain", "Unlock", 1},
		{"Lock", "Release", 1},
		{"Set", "Del", 0},
	} {
		if got := Affinity(tc.acquire, tc.other); got != tc.want {
			t.Errorf("Affinity(%q, %q) = %d, want %d", tc.acquire, tc.other, got, tc.want)
		}
	}
}
