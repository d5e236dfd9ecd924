package lvconfig

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseWrappers(t *testing.T) {
	p := func(i int) *Param { return &Param{Index: i} }
	n := func(s string) *Param { return &Param{Index: -1, Name: s} }
	for _, tc := range []struct {
		kind  WrapperKind
		value string
		want  []Wrapper
	}{
		{AcquireFunc, "(*example.com/cache.Store).TryLock:key=1,value=2,ttl=3",
			[]Wrapper{{Kind: AcquireFunc, Func: "(*example.com/cache.Store).TryLock", Key: p(1), Value: p(2), TTL: p(3)}}},
		{AcquireFunc, " example.com/lock.Take : key = key , ttl = none ",
			[]Wrapper{{Kind: AcquireFunc, Func: "example.com/lock.Take", Key: n("key"), NoTTL: true}}},
		{AcquireFunc, "example.com/lock.Take",
			[]Wrapper{{Kind: AcquireFunc, Func: "example.com/lock.Take"}}},
		{ExpireFunc, "(example.com/cache.Store).Touch:key=key,ttl=secs,unit=seconds;;example.com/x.Refresh:key=0",
			[]Wrapper{
				{Kind: ExpireFunc, Func: "(example.com/cache.Store).Touch", Key: n("key"), TTL: n("secs"), Unit: UnitSeconds},
				{Kind: ExpireFunc, Func: "example.com/x.Refresh", Key: p(0)},
			}},
		{SafeReleaseFunc, "(*gopkg.in/x.v2/lock.T).Unlock:key=1,value=token",
			[]Wrapper{{Kind: SafeReleaseFunc, Func: "(*gopkg.in/x.v2/lock.T).Unlock", Key: p(1), Value: n("token")}}},
		{ReleaseFunc, "  ", nil},
	} {
		got, err := ParseWrappers(tc.kind, tc.value)
		if err != nil {
			t.Errorf("%s %q: %v", tc.kind.Setting(), tc.value, err)
			continue
		}
		for i := range got {
			got[i].Spec = ""
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %q:\ngot  %+v\nwant %+v", tc.kind.Setting(), tc.value, got, tc.want)
		}
	}
}

func TestParseWrappersErrors(t *testing.T) {
	for _, tc := range []struct {
		kind        WrapperKind
		value, want string
	}{
		{AcquireFunc, "TryLock", `acquire-funcs "TryLock": want a function as pkg/path.Func or a method as (*pkg/path.Type).Method`},
		{AcquireFunc, "(*Store).TryLock", "want a function as pkg/path.Func"},
		{AcquireFunc, "(*example.com/x.Store.TryLock", "want a function"},
		{AcquireFunc, "example.com/x.Lock:", "nothing after ':'"},
		{AcquireFunc, "example.com/x.Lock:key", `option "key": want NAME=VALUE`},
		{AcquireFunc, "example.com/x.Lock:key=1,key=2", `option "key" given twice`},
		{AcquireFunc, "example.com/x.Lock:token=1", `unknown option "token" (acquire-funcs take key, value, ttl, unit)`},
		{ReleaseFunc, "example.com/x.Unlock:key=1,value=2", `unknown option "value" (release-funcs take key)`},
		{ReleaseFunc, "example.com/x.Unlock", "option key is required, as in example.com/x.Unlock:key=1"},
		{ExpireFunc, "example.com/x.Touch:key=1,ttl=none", "ttl=none is for acquire-funcs only"},
		{ExpireFunc, "example.com/x.Touch:key=1,unit=seconds", "unit=seconds without a ttl parameter"},
		{ExpireFunc, "example.com/x.Touch:key=1,ttl=2,unit=hours", "unit=hours: want duration, seconds or millis"},
		{AcquireFunc, "example.com/x.Lock:key=-1", "key=-1: want a parameter position (0, 1, …) or name"},
		{AcquireFunc, "example.com/x.Lock:key=a.b", "key=a.b: want a parameter position"},
		{AcquireFunc, "example.com/x.Lock:key=0;bad", `acquire-funcs "bad"`},
	} {
		_, err := ParseWrappers(tc.kind, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %v, want one containing %q", tc.kind.Setting(), tc.value, err, tc.want)
		}
	}
}

func TestValidateWrappers(t *testing.T) {
	a, _ := ParseWrappers(AcquireFunc, "(*example.com/x.T).Lock:key=0")
	r, _ := ParseWrappers(ReleaseFunc, "(example.com/x.T).Lock:key=0")
	c := &Config{Wrappers: append(a, r...)}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("a method declared as acquire and release: error %v", err)
	}
	c = &Config{Wrappers: []Wrapper{{Kind: ReleaseFunc, Func: "example.com/x.Unlock"}}}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "option key is required") {
		t.Errorf("a release built without a key: error %v", err)
	}
	c = &Config{Wrappers: a}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
	if got := a[0].MatchName(); got != "(example.com/x.T).Lock" {
		t.Errorf("MatchName = %q", got)
	}
	if got := a[0].ShortName(); got != "Lock" {
		t.Errorf("ShortName = %q", got)
	}
}
