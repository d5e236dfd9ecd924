// Package rueidis is run with lockvet configured for Redis 8.4: releases
// get DELEX IFEQ as the first fix, and the compare-and-delete script,
// declared here by the fix, as the second.
package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func withLock(ctx context.Context, client rueidis.Client, key, token string, fn func()) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(60).Build()).Error() != nil {
		return
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner`
	fn()
}

// The reply is read the same way from DELEX and from the script.
func release(ctx context.Context, client rueidis.Client, key, token string) (int64, error) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(60).Build())
	return client.Do(ctx, client.B().Unlink().Key(key).Build()).AsInt64() // want `UNLINK of lock key key does not check the owner`
}

// A dedicated connection runs no scripts: DELEX only.
func dedicated(ctx context.Context, c rueidis.DedicatedClient, key, token string) {
	if c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(60).Build()).Error() == nil {
		c.Do(ctx, c.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner`
	}
}
