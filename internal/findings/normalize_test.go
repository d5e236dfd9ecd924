package findings

import (
	"strings"
	"testing"
)

func TestNormalizeCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"rdb.Expire(ctx,key,\n\tttl)", "rdb.Expire(ctx, key, ttl)"},
		{"x := a + b // c", "x:=a+b"},
		{"return x, nil", "return x, nil"},
		{`"lock:" + id`, `"lock:"+id`},
		{"func() { a(); b() }", "func(){a(); b()}"},
	} {
		if got := normalizeCode([]byte(tc.in)); got != tc.want {
			t.Errorf("normalizeCode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := normalizeCode([]byte(strings.Repeat("a+", 200) + "b"))
	long2 := normalizeCode([]byte(strings.Repeat("a+", 200) + "c"))
	if len(long) > maxCode+40 || long == long2 {
		t.Errorf("long code: %q (%d bytes), distinct: %v", long, len(long), long != long2)
	}
}
