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
	if o.dir != "dir" || o.tests || !o.config.includeGenerated || o.config.redisVersion != "8.4" ||
		!slices.Equal(o.config.checks, []string{"LV101", "setnxexpire", "LV102"}) || !slices.Equal(o.config.disable, []string{"LV104"}) ||
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

func TestIsVetInvocation(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "-checks=LV101", "/tmp/go-build1/b001/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-V"}, false},
		{[]string{"-C", "testdata", "./..."}, false},
		{nil, false},
	} {
		if got := isVetInvocation(tc.args); got != tc.want {
			t.Errorf("isVetInvocation(%q) = %v", tc.args, got)
		}
	}
}

func TestPickFlags(t *testing.T) {
	var cf configFlags
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	cf.register(fs)
	args := []string{"-json", "-checks", "LV101", "-setnxexpire=false", "--redis-version=8.4", "-include-generated", "-disable=LV102", "-c", "1", "vet.cfg"}
	got := pickFlags(fs, args)
	want := []string{"-checks", "LV101", "--redis-version=8.4", "-include-generated", "-disable=LV102"}
	if !slices.Equal(got, want) {
		t.Fatalf("pickFlags = %q, want %q", got, want)
	}
	if err := fs.Parse(got); err != nil {
		t.Fatal(err)
	}
	if cf.redisVersion != "8.4" || !cf.includeGenerated || !slices.Equal(cf.checks, []string{"LV101"}) || !slices.Equal(cf.disable, []string{"LV102"}) {
		t.Errorf("config = %+v", cf)
	}
}
