package apicheck

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAPIDocs holds every doc comment a user reads (issue 43) to names
// the user can see: no unexported identifier written as code, no internal
// package. Write what the user can call instead, or say it in words.
func TestAPIDocs(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	leaks, err := DocLeaks(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) > 0 {
		t.Errorf("%d exported doc comments name what a user cannot see:\n%s", len(leaks), strings.Join(leaks, "\n"))
	}
}
