// Package rueidisdecl has no renewal script yet and does not import
// strconv: the fix declares the one and imports the other.
package rueidisdecl

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func keepAlive(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration, stop <-chan struct{}) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error() != nil {
		return
	}
	for {
		select {
		case <-stop:
			return
		case <-time.After(ttl / 3):
			if err := client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(int64(ttl/time.Millisecond)).Build()).Error(); err != nil { // want `PEXPIRE renews lock key in a loop`
				return
			}
		}
	}
}
