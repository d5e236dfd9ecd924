// Package unsafeunlock: LV201 on valkey-go's native client, which is
// rueidis' adapter registered under valkey-go's module path; the fix
// declares the compare-and-delete script with valkey.NewLuaScript.
package unsafeunlock

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func work() {}

// --- reported ---

func release(ctx context.Context, client valkey.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return err
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner`
	work()
	return nil
}

// --- not reported ---

func compareDelete(ctx context.Context, client valkey.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return err
	}
	defer client.Do(ctx, client.B().Delex().Key(key).Ifeq(token).Build())
	work()
	return nil
}
