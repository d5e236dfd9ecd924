// No file of this package imports the client: the fix adds the import
// with the script variable, in the first file.
package noimport

import (
	"context"
	"time"

	"lockvet.test/unsaferenew/noimport/store"
)

func lock(ctx context.Context, l *store.Locker) bool {
	return l.RDB.SetNX(ctx, l.Key, l.Token, l.TTL).Val()
}

func keepAlive(ctx context.Context, l *store.Locker, every time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
			l.RDB.Expire(ctx, l.Key, l.TTL) // want `Expire renews lock l.Key in a loop`
		}
	}
}
