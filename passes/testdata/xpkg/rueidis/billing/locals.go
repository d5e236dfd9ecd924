package billing

import (
	"context"

	"lockvet.test/xpkg/rueidis/lock"
)

func Invoice(ctx context.Context, id string) error {
	key := "invoice:" + id
	if _, err := lock.LockJob(ctx, key); err != nil { // want `only the error of LockJob is checked`
		return err
	}
	return nil
}

// Read in full: silent.
func Void(ctx context.Context, id string) error {
	ok, err := lock.LockJob(ctx, "void:"+id)
	if err != nil || !ok {
		return err
	}
	return nil
}
