package dynamodblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// supervisor is the sh script that runs DynamoDB Local ("$@") and stops it
// when its standard input reaches end of file. That input is a pipe whose
// only writer is the test binary, and the kernel closes it however the
// binary ends (normal exit, t.Fatal in TestMain, a -timeout panic,
// SIGKILL), so java cannot outlive the binary.
//
// Pdeathsig would be simpler but is Linux only and fires when the OS thread
// that started the child exits, not the process, and the Go runtime may
// retire threads. The script exits with java's status, so the test binary
// still sees java die at startup.
//
// Background jobs of a non-interactive sh get /dev/null as standard input,
// hence the copy of the pipe on fd 3.
const supervisor = `exec 3<&0
"$@" </dev/null 3<&- &
java=$!
{ while read -r _ <&3; do :; done; kill "$java" 2>/dev/null; } </dev/null >/dev/null 2>&1 &
watcher=$!
exec 3<&-
wait "$java"
status=$?
kill "$watcher" 2>/dev/null
exit "$status"
`

// StartOptions tune Start.
type StartOptions struct {
	// SharedDB serves one database to every access key and region, instead
	// of one per pair: for a server that several programs share.
	SharedDB bool
}

// Process is a running DynamoDB Local.
type Process struct {
	// Endpoint is its URL on the loopback interface, such as
	// http://127.0.0.1:43127. It answers on the same port on every other
	// interface too: see the package documentation.
	Endpoint string
	p        *javaProc
}

// Stop ends DynamoDB Local and waits for it.
func (p *Process) Stop() { p.p.stop() }

// Exited is closed when DynamoDB Local has exited.
func (p *Process) Exited() <-chan struct{} { return p.p.exited }

// Start starts the DynamoDB Local in jar, in memory, on a port that is free
// on the loopback interface, and returns once it answers there. DynamoDB
// Local listens on every interface, not only loopback: it has no option to
// choose the address (see the package documentation). It stops when Stop
// is called or when this process exits, however it exits.
func Start(jar string, o StartOptions) (*Process, error) {
	abs, err := filepath.Abs(jar)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, errors.New("java not found: DynamoDB Local needs a Java 17+ runtime on PATH (e.g. apt-get install default-jre-headless)")
	}

	// The port is free when we look and taken by java a moment later;
	// someone else may take it in between, so try a few.
	var lastErr error
	for started, tries := 0, 0; started < 3 && tries < 50; tries++ {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		if !lockPort(port) {
			continue // another test binary has it
		}
		started++
		p, err := startJava(java, abs, port, o.SharedDB)
		if err != nil {
			return nil, err
		}
		endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		err = WaitReady(ctx, endpoint, p.exited)
		cancel()
		if err == nil {
			return &Process{Endpoint: endpoint, p: p}, nil
		}
		p.stop()
		out := p.out.String()
		lastErr = fmt.Errorf("DynamoDB Local did not start on port %d: %v (%v)\n--- its output (tail) ---\n%s",
			port, err, p.waitErr, out)
		if !strings.Contains(out, "Address already in use") {
			break
		}
	}
	if lastErr == nil {
		lastErr = errors.New("found no free port that no other test binary holds")
	}
	return nil, lastErr
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// javaProc is a running supervisor and its DynamoDB Local.
type javaProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser // closing it stops java
	out    *tailBuffer    // java's stdout and stderr
	exited chan struct{}  // closed when the supervisor has exited
	// waitErr is cmd.Wait's result, readable once exited is closed.
	waitErr error
}

func startJava(java, jar string, port int, shared bool) (*javaProc, error) {
	// -port is the only address option DynamoDB Local 3.x has: it binds
	// the wildcard address.
	args := []string{"-c", supervisor, "ddbkit-dynamodb-local",
		java,
		"-Djava.library.path=" + filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib"),
		"-jar", jar,
		"-inMemory", "-disableTelemetry",
		"-port", strconv.Itoa(port)}
	if shared {
		args = append(args, "-sharedDb")
	}
	cmd := exec.Command("sh", args...)
	// -inMemory writes nothing, but keep any stray file out of the package
	// directory the test runs in.
	cmd.Dir = os.TempDir()
	p := &javaProc{cmd: cmd, out: new(tailBuffer), exited: make(chan struct{})}
	cmd.Stdout = p.out
	cmd.Stderr = p.out
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start DynamoDB Local: %w", err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop ends java and waits for it, killing the supervisor if java is slow
// to go.
func (p *javaProc) stop() {
	p.stdin.Close()
	select {
	case <-p.exited:
		return
	case <-time.After(15 * time.Second):
	}
	p.cmd.Process.Kill()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		fmt.Fprintf(os.Stderr, "ddbkit: DynamoDB Local (supervisor pid %d) did not stop\n", p.cmd.Process.Pid)
	}
}

const tailSize = 16 << 10

// tailBuffer keeps the last tailSize bytes written to it. It is safe for
// concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

// Write implements io.Writer, keeping only the tail.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*tailSize {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-tailSize:]...)
	}
	return len(p), nil
}

// String returns the last tailSize bytes written.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf
	if len(s) > tailSize {
		s = s[len(s)-tailSize:]
	}
	return string(bytes.TrimSpace(s))
}

// WaitReady polls endpoint with ListTables until it answers, ctx ends, or
// exited (if not nil) is closed.
func WaitReady(ctx context.Context, endpoint string, exited <-chan struct{}) error {
	// One attempt per poll: the loop is the retry. DynamoDB Local accepts
	// any credentials whose key ID is letters and digits.
	c := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		BaseEndpoint:     aws.String(endpoint),
		RetryMaxAttempts: 1,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "ddbkit", SecretAccessKey: "ddbkit"}, nil
		}),
	})
	var lastErr error
	for {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := c.ListTables(actx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)})
		cancel()
		if err == nil {
			return nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("no answer in time: %w", lastErr)
		case <-exited:
			return errors.New("process exited")
		case <-time.After(100 * time.Millisecond):
		}
	}
}
