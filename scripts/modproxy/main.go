// Command modproxy writes a Go module proxy, as a directory for a file://
// GOPROXY, that serves ddbkit's two modules from the working tree at one
// version:
//
//	go run ./scripts/modproxy -dir /tmp/proxy -version v0.0.0-20261123090000-0123456789ab
//
// It is what a release would publish: each module's files (tracked or
// untracked, not ignored by git; nested modules left out), and ddbtest's
// go.mod as released, requiring ddbkit at the same version and without the
// replace directive that only the repository uses. scripts/consumer-test.sh
// builds examples/consumer against it, as "go get" would.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

const root = "github.com/ddbkit/ddbkit"

func main() {
	dir := flag.String("dir", "", "directory to write the proxy into")
	version := flag.String("version", "", "version to publish both modules at")
	flag.Parse()
	if *dir == "" || *version == "" || flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*dir, *version); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

func run(dir, version string) error {
	files, err := workingTree()
	if err != nil {
		return err
	}
	// Nested modules: every directory but the root holding a go.mod.
	var nested []string
	for _, f := range files {
		if path.Base(f) == "go.mod" && path.Dir(f) != "." {
			nested = append(nested, path.Dir(f)+"/")
		}
	}
	modules := []struct{ path, dir string }{{root, ""}, {root + "/ddbtest", "ddbtest/"}}
	for _, m := range modules {
		var mine []string
		for _, f := range files {
			if !strings.HasPrefix(f, m.dir) || inNested(f, m.dir, nested) {
				continue
			}
			mine = append(mine, f)
		}
		if err := publish(dir, m.path, m.dir, version, mine); err != nil {
			return fmt.Errorf("%s: %w", m.path, err)
		}
	}
	return nil
}

func inNested(f, moduleDir string, nested []string) bool {
	for _, n := range nested {
		if n != moduleDir && strings.HasPrefix(f, n) {
			return true
		}
	}
	return false
}

// workingTree lists the files git tracks or would track, that exist.
func workingTree() ([]string, error) {
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	var files []string
	seen := map[string]bool{}
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files, nil
}

var zeroRequire = regexp.MustCompile(`(?m)^(\s*(?:require\s+)?` + regexp.QuoteMeta(root) + `) v\S+`)
var replaceLine = regexp.MustCompile(`(?m)^replace\s+` + regexp.QuoteMeta(root) + `\s+=>.*\n`)

// goMod returns the module's go.mod as released.
func goMod(modDir, version string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return nil, err
	}
	if modDir == "" {
		return b, nil
	}
	b = replaceLine.ReplaceAll(b, nil)
	return zeroRequire.ReplaceAll(b, []byte("${1} "+version)), nil
}

func publish(dir, modPath, modDir, version string, files []string) error {
	at := filepath.Join(dir, filepath.FromSlash(modPath), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	mod, err := goMod(modDir, version)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		rel := strings.TrimPrefix(f, modDir)
		w, err := zw.Create(modPath + "@" + version + "/" + rel)
		if err != nil {
			return err
		}
		var b []byte
		if rel == "go.mod" {
			b = mod
		} else if b, err = os.ReadFile(f); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	for name, b := range map[string][]byte{
		version + ".zip":  buf.Bytes(),
		version + ".mod":  mod,
		version + ".info": info,
		"list":            []byte(version + "\n"),
	} {
		if err := os.WriteFile(filepath.Join(at, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
