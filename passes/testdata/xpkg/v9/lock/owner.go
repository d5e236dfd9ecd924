package lock

import "context"

// ForgetIfMine deletes key while it holds token: a GET, a compare and a
// DEL in separate round trips. Its name pairs it with no acquire here:
// its callers' packages are the evidence, and the finding is at their
// call.
func ForgetIfMine(ctx context.Context, key, token string) error { // want ForgetIfMine:"release-funcs:key=1"
	if rdb.Get(ctx, key).Val() != token {
		return nil
	}
	return rdb.Del(ctx, key).Err()
}

// UseCode consumes a one-time code the same way: a release helper to the
// summary, a lock only where a caller acquired the key.
func UseCode(ctx context.Context, key, code string) bool { // want UseCode:"release-funcs:key=1"
	if rdb.Get(ctx, key).Val() == code {
		rdb.Del(ctx, key)
		return true
	}
	return false
}
