package lockid

import "testing"

func TestLockWords(t *testing.T) {
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
		if got := lockWords(s, false); got != want {
			t.Errorf("lockWords(%q, key) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{
		"acquireSlot":  true,
		"release":      true,
		"Obtain":       false,
		"requireToken": false,
	} {
		if got := lockWords(s, true); got != want {
			t.Errorf("lockWords(%q, func) = %v, want %v", s, got, want)
		}
	}
}
