package rueidis

import (
	"context"

	"github.com/redis/rueidis"

	"lockvet.test/keyspace"
)

const (
	dockLockFmt  = "dock:%s:lock"
	dockStateFmt = "dock:%s:state"
)

// A dock lock taken with a constant and given back by another function,
// its key from a shared key function.
func moor(ctx context.Context, client rueidis.Client, dock string) error {
	return client.Do(ctx, client.B().Set().Key(keyspace.Key(dockLockFmt, dock)).Value("moored").Nx().ExSeconds(20).Build()).Error() // want `lock keyspace.Key\(dockLockFmt, dock\) is acquired with the constant "moored"`
}

func castOff(ctx context.Context, client rueidis.Client, dock string) {
	client.Do(ctx, client.B().Del().Key(keyspace.Key(dockLockFmt, dock)).Build())
}

// --- silent ---

// A random token, given back by the compare-and-delete script.
func moorOwned(ctx context.Context, client rueidis.Client, dock string) (string, error) {
	tok := newToken()
	return tok, client.Do(ctx, client.B().Set().Key(keyspace.Key(dockLockFmt, dock)).Value(tok).Nx().ExSeconds(20).Build()).Error()
}

func castOffOwned(ctx context.Context, client rueidis.Client, dock, tok string) {
	unlockScript.Exec(ctx, client, []string{keyspace.Key(dockLockFmt, dock)}, []string{tok})
}

// A state written and cleared through the same key function.
func setDockState(ctx context.Context, client rueidis.Client, dock, s string) {
	client.Do(ctx, client.B().Set().Key(keyspace.Key(dockStateFmt, dock)).Value(s).ExSeconds(60).Build())
}

func clearDockState(ctx context.Context, client rueidis.Client, dock string) {
	client.Do(ctx, client.B().Del().Key(keyspace.Key(dockStateFmt, dock)).Build())
}
