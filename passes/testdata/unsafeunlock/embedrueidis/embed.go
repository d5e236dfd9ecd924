// rueidis: the embedded compare-and-delete script is reused by the fix.
package embedrueidis

import (
	"context"
	_ "embed"

	"github.com/redis/rueidis"
)

//go:embed unlock.lua
var unlockLua []byte

var unlock = rueidis.NewLuaScript(string(unlockLua))

func work(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() != nil {
		return
	}
	client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner`
}

// Silent: released with the embedded script.
func done(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() != nil {
		return
	}
	unlock.Exec(ctx, client, []string{key}, []string{token})
}
