// Package adapters holds the proof shapes of the clients whose lockvet
// adapters are newer than go-redis (redigo, rueidis, gomemcache), buggy
// and as lockvet fixes them. They are exercised by the proof tests built
// with -tags proofadapters (see proof/adapters_test.go), which become part
// of the default suite once every fix they contain passes.
package adapters
