package billing

import (
	"context"

	"example.com/xpkg/cache"
)

func Charge(ctx context.Context, id string) error {
	ok, err := cache.Lock(ctx, "bill:"+id)
	if err != nil || !ok {
		return err
	}
	defer cache.Unlock(ctx, "bill:"+id)
	return nil
}
