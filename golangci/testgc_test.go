package golangci_test

// These tests load passes/testdata and the example module with the
// standard library and the client modules type-checked from source; testgc
// trades memory for the collector's share of their CPU time.
import _ "github.com/lockvet/lockvet/internal/testgc"
