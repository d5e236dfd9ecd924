package main

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseFlags(t *testing.T) {
	o, patterns, err := parseFlags(nil, io.Discard)
	if err != nil || !o.tests || !slices.Equal(patterns, []string{"./..."}) {
		t.Errorf("defaults: %+v %v %v", o, patterns, err)
	}
	o, patterns, err = parseFlags([]string{"-C", "dir", "-checks", "LV101, setnxexpire", "-checks=LV102", "-disable", "LV104", "-test=false", "-redis-version", "8.4", "-include-generated", "./a/...", "./b"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.dir != "dir" || o.tests || !o.config.IncludeGenerated || o.config.RedisVersion != "8.4" ||
		!slices.Equal(o.config.Checks, []string{"LV101", "setnxexpire", "LV102"}) || !slices.Equal(o.config.Disable, []string{"LV104"}) ||
		!slices.Equal(patterns, []string{"./a/...", "./b"}) {
		t.Errorf("parsed %+v %v", o, patterns)
	}
	if _, _, err := parseFlags([]string{"-json", "-diff"}, io.Discard); err != errReported {
		t.Errorf("-json -diff: err = %v", err)
	}
	if _, _, err := parseFlags([]string{"-h"}, io.Discard); err != flag.ErrHelp {
		t.Errorf("-h: err = %v", err)
	}
}
