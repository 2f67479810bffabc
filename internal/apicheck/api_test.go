package apicheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ddbkit/ddbkit/internal/apicheck"
)

// TestAPI holds the code to its record: a change of ddbkit's exported API
// fails here until api/*.txt says it too ("make api"), so that the change
// is seen in review and written in the CHANGELOG.
func TestAPI(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := apicheck.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range files {
			if !yield(name) {
				return
			}
		}
	}) {
		want, err := apicheck.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		removed, added := apicheck.Diff(want, files[name])
		if len(removed)+len(added) == 0 {
			continue
		}
		var b strings.Builder
		for _, l := range removed {
			b.WriteString("\n-" + l)
		}
		for _, l := range added {
			b.WriteString("\n+" + l)
		}
		t.Errorf("%s differs from the code (- in the file only, + in the code only):%s\n"+
			"If the change is meant, run \"make api\" to rewrite %s, and add a CHANGELOG line "+
			"(a removed or changed line breaks callers: keep the old name, deprecated).",
			name, b.String(), name)
	}
}

// TestAPIFixture checks the generator on a package with one feature of
// each kind, against testdata/fixture.txt.
func TestAPIFixture(t *testing.T) {
	got, err := apicheck.Features(".", "./testdata/fixture")
	if err != nil {
		t.Fatal(err)
	}
	want, err := apicheck.ReadFile(filepath.Join("testdata", "fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("testdata/fixture.txt is missing or empty")
	}
	removed, added := apicheck.Diff(want, got)
	for _, l := range removed {
		t.Errorf("missing: %s", l)
	}
	for _, l := range added {
		t.Errorf("unexpected: %s", l)
	}
	if !slices.IsSorted(got) {
		t.Error("features are not sorted")
	}
}

func TestAPIDiff(t *testing.T) {
	tests := []struct {
		name                   string
		want, got              []string
		wantRemoved, wantAdded []string
	}{
		{name: "same", want: []string{"a", "b"}, got: []string{"a", "b"}},
		{name: "added", want: []string{"a"}, got: []string{"b", "a"}, wantAdded: []string{"b"}},
		{name: "removed", want: []string{"b", "a"}, got: []string{"a"}, wantRemoved: []string{"b"}},
		{name: "changed", want: []string{"f(int)"}, got: []string{"f(string)"}, wantRemoved: []string{"f(int)"}, wantAdded: []string{"f(string)"}},
		{name: "missing file", got: []string{"a"}, wantAdded: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			removed, added := apicheck.Diff(tt.want, tt.got)
			if !slices.Equal(removed, tt.wantRemoved) || !slices.Equal(added, tt.wantAdded) {
				t.Errorf("Diff = -%q +%q, want -%q +%q", removed, added, tt.wantRemoved, tt.wantAdded)
			}
		})
	}
}

// TestAPIReadFile checks that a missing file reads as no lines, so that a
// new module's first run reports every line as added.
func TestAPIReadFile(t *testing.T) {
	lines, err := apicheck.ReadFile(filepath.Join(t.TempDir(), "none.txt"))
	if err != nil || lines != nil {
		t.Errorf("ReadFile(missing) = %q, %v; want nil, nil", lines, err)
	}
	path := filepath.Join(t.TempDir(), "x.txt")
	if err := os.WriteFile(path, apicheck.Format([]string{"a", "b"}), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err = apicheck.ReadFile(path)
	if err != nil || !slices.Equal(lines, []string{"a", "b"}) {
		t.Errorf("ReadFile = %q, %v; want [a b]", lines, err)
	}
}
