// Package adapters holds the proof shapes of redigo, rueidis and
// gomemcache, buggy and as lockvet fixes them. TestProofShapes checks the
// fixed tree byte for byte against lockvet's fixes, and TestProofAdapters
// (proof/adapters_test.go) runs both against real servers; they are part
// of the default proof suite and docs/proof.md.
package adapters
