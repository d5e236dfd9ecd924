package unsaferenew

import "testing"

func TestRenewName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Refresh":       true,
		"refreshLock":   true,
		"extendLease":   true,
		"Renew":         true,
		"renew_ttl":     true,
		"KeepAlive":     true,
		"keepalive":     true,
		"heartBeat":     true,
		"HTTPHeartbeat": true,
		"watchDog":      true,
		"ProlongLock":   true,
		"lengthen":      false,
		"touch":         false,
		"Expire":        false,
		"keep":          false,
		"unrefreshed":   false,
		"Lock":          false,
	} {
		if got := renewName(name); got != want {
			t.Errorf("renewName(%q) = %v, want %v", name, got, want)
		}
	}
}
