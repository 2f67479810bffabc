// Command api rewrites ddbkit's API record, api/ddbkit.txt and
// api/ddbtest.txt, from the code ("make api" runs it from the repository
// root). With -check it only compares, and fails on a difference, as
// TestAPI does.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ddbkit/ddbkit/internal/apicheck"
)

func main() {
	root := flag.String("root", ".", "the repository root, where go.work is")
	check := flag.Bool("check", false, "compare with the committed files instead of writing them")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	files, err := apicheck.Generate(root)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	differ := false
	for _, name := range names {
		path := filepath.Join(root, name)
		old, err := apicheck.ReadFile(path)
		if err != nil {
			return err
		}
		removed, added := apicheck.Diff(old, files[name])
		if len(removed)+len(added) == 0 {
			continue
		}
		differ = true
		fmt.Printf("%s: %d removed, %d added\n", name, len(removed), len(added))
		if check {
			for _, l := range removed {
				fmt.Println("-" + l)
			}
			for _, l := range added {
				fmt.Println("+" + l)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, apicheck.Format(files[name]), 0o644); err != nil {
			return err
		}
	}
	if check && differ {
		return fmt.Errorf("api: the record differs from the code; run \"make api\"")
	}
	return nil
}
