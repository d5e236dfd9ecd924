// Package output prints what an analysis run found (a findings.Result) in
// each of the lockvet command's formats, one file per format: text
// (text.go, path:line:col: ID: message), json (go vet -json's shape),
// sarif (SARIF 2.1.0, for code scanning), github (GitHub Actions
// annotations), codeclimate (GitLab Code Quality) and checkstyle
// (Checkstyle XML). position.go has the paths and columns they share.
package output
