package rueidis

import (
	"context"

	"github.com/redis/rueidis"

	"lockvet.test/keyspace"
)

const (
	craneLockFmt = "crane:%s:lift:lock"
	craneLoadFmt = "crane:%s:load"
)

// --- reported ---

// The lift lock: a constant value, dropped by another function.
func startLift(ctx context.Context, client rueidis.Client, crane string) error {
	return client.Do(ctx, client.B().Set().Key(keyspace.Key(craneLockFmt, crane)).Value("up").Nx().ExSeconds(30).Build()).Error()
}

func cancelLift(ctx context.Context, client rueidis.Client, crane string) {
	client.Do(ctx, client.B().Del().Key(keyspace.Key(craneLockFmt, crane)).Build()) // want `DEL of lock key keyspace\.Key\(craneLockFmt, crane\) does not check the owner, and every holder writes "up": it can delete another holder's lock \(LV204\)`
}

// --- silent ---

// A load figure written and cleared through the same key function.
func setLoad(ctx context.Context, client rueidis.Client, crane, v string) {
	client.Do(ctx, client.B().Set().Key(keyspace.Key(craneLoadFmt, crane)).Value(v).ExSeconds(60).Build())
}

func clearLoad(ctx context.Context, client rueidis.Client, crane string) {
	client.Do(ctx, client.B().Del().Key(keyspace.Key(craneLoadFmt, crane)).Build())
}

// A token and the compare-and-delete script.
func startLiftOwned(ctx context.Context, client rueidis.Client, crane string) (string, error) {
	tok := newToken()
	return tok, client.Do(ctx, client.B().Set().Key(keyspace.Key(craneLockFmt, crane)).Value(tok).Nx().ExSeconds(30).Build()).Error()
}

func endLiftOwned(ctx context.Context, client rueidis.Client, crane, tok string) {
	unlockScript.Exec(ctx, client, []string{keyspace.Key(craneLockFmt, crane)}, []string{tok})
}
