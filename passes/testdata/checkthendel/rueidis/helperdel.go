package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

func delKey(ctx context.Context, client rueidis.Client, key string) error {
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// GET, compare, then a helper that deletes.
func releaseViaHelper(ctx context.Context, client rueidis.Client, key, token string) error {
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil || v != token {
		return err
	}
	return delKey(ctx, client, key) // want `delKey deletes key \(DEL\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step`
}

// --- silent ---

// A one-time code: not a lock.
func verifyViaHelper(ctx context.Context, client rueidis.Client, phone, input string) bool {
	key := "sms:code:" + phone
	if v, _ := client.Do(ctx, client.B().Get().Key(key).Build()).ToString(); v != input {
		return false
	}
	return delKey(ctx, client, key) == nil
}
