package lock

import "context"

// ForgetIfMine deletes key while it holds token: a GET, a compare and a
// DEL in separate round trips. Its callers' packages are the evidence
// that key is a lock.
func ForgetIfMine(ctx context.Context, key, token string) error { // want ForgetIfMine:"release-funcs:key=1"
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil || v != token {
		return err
	}
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// UseCode consumes a one-time code the same way.
func UseCode(ctx context.Context, key, code string) bool { // want UseCode:"release-funcs:key=1"
	if v, _ := client.Do(ctx, client.B().Get().Key(key).Build()).ToString(); v == code {
		client.Do(ctx, client.B().Del().Key(key).Build())
		return true
	}
	return false
}
