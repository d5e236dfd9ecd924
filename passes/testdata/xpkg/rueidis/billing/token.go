package billing

import (
	"context"
	"time"

	"lockvet.test/xpkg/rueidis/lock"
)

// Ship drops the bool of a (token, ok, err) helper.
func Ship(ctx context.Context, id string) (string, error) {
	tok, _, err := lock.TryLockToken(ctx, "ship:"+id, 10*time.Second) // want `only the error of TryLockToken is checked`
	if err != nil {
		return "", err
	}
	return tok, nil
}

// Pack reads it: silent.
func Pack(ctx context.Context, id string) (string, error) {
	tok, ok, err := lock.TryLockToken(ctx, "pack:"+id, 10*time.Second)
	if err != nil || !ok {
		return "", err
	}
	return tok, nil
}
