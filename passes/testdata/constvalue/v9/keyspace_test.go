package v9

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/keyspace"
)

// --- silent ---

// A test fixture plays another sender holding the radio's lock: the code
// under test (holdSite's DEL) is not its release.
func occupyRadio(t *testing.T, rdb *redis.Client, radio string) {
	t.Helper()
	if !rdb.SetNX(context.Background(), keyspace.Key(radioTxLockFmt, radio), "other-sender", time.Minute).Val() {
		t.Fatal("radio already locked")
	}
}
