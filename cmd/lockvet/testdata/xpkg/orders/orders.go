package orders

import (
	"context"

	"example.com/xpkg/cache"
)

func Place(ctx context.Context, id string) error {
	if _, err := cache.Lock(ctx, "order:"+id); err != nil {
		return err
	}
	defer cache.Unlock(ctx, "order:"+id)
	_ = cache.Get(ctx, "order:"+id)
	return nil
}
