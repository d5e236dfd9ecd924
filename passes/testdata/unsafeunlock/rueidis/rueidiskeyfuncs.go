package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func syncKey(tenant string) string { return "sync:" + tenant }

// --- reported ---

// The key function, which names no lock, is called again for the
// release: the same key, in the function that took the lock.
func syncTenant(ctx context.Context, client rueidis.Client, tenant string) error {
	token := newToken()
	err := client.Do(ctx, client.B().Set().Key(syncKey(tenant)).Value(token).Nx().Px(time.Minute).Build()).Error()
	if err != nil {
		return err
	}
	defer client.Do(ctx, client.B().Del().Key(syncKey(tenant)).Build()) // want `DEL of lock key syncKey\(tenant\) does not check the owner`
	return nil
}
