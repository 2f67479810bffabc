package ddbtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcdynamodb "github.com/testcontainers/testcontainers-go/modules/dynamodb"
)

// defaultImage is pinned so that a new DynamoDB Local release cannot change
// test results unannounced.
const defaultImage = "amazon/dynamodb-local:3.1.0"

// dockerCheckTimeout bounds the question "is Docker usable?". With no
// engine the answer is immediate (no socket, no DOCKER_HOST); the bound
// covers a DOCKER_HOST that points at something that never answers.
const dockerCheckTimeout = 5 * time.Second

// dockerUnusable returns "" when testcontainers can reach a Docker engine,
// and otherwise why not. It asks testcontainers itself, so it finds the
// engine the same way the container start will (DOCKER_HOST, Docker
// contexts, ~/.testcontainers.properties, the default and rootless
// sockets). testcontainers panics in some no-engine paths, and parts of its
// discovery take no context, so the check runs in its own goroutine under
// recover and a deadline.
func dockerUnusable() string {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), dockerCheckTimeout)
		defer cancel()
		p, err := testcontainers.NewDockerProvider()
		if err != nil {
			done <- err
			return
		}
		done <- p.Health(ctx) // Health also closes p
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(dockerCheckTimeout + time.Second):
		err = errors.New("no answer from the engine in time")
	}
	if err == nil {
		return ""
	}
	// The joined discovery errors can run over several lines.
	return "no usable Docker engine: " + strings.Join(strings.Fields(err.Error()), " ")
}

// startContainer runs DynamoDB Local in Docker and returns its endpoint
// and image. Ryuk removes the container when the test binary exits; Main
// removes it earlier.
func startContainer() (endpoint, image string, err error) {
	image = defaultImage
	if img := strings.TrimSpace(os.Getenv(envImage)); img != "" {
		image = img
	}
	// Long enough for a first image pull.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ctr, err := tcdynamodb.Run(ctx, image,
		tcdynamodb.WithDisableTelemetry(),
		testcontainers.WithCmdArgs("-inMemory"))
	if err != nil {
		// Run may return a container that started but failed its wait.
		terminate(ctr)
		return "", image, fmt.Errorf("start %s: %w", image, err)
	}
	hostPort, err := ctr.ConnectionString(ctx)
	if err != nil {
		terminate(ctr)
		return "", image, fmt.Errorf("%s: address: %w", image, err)
	}
	endpoint = "http://" + hostPort
	if err := waitReady(ctx, endpoint, nil); err != nil {
		terminate(ctr)
		return "", image, fmt.Errorf("%s at %s: %w", image, endpoint, err)
	}
	onStop(func() { terminate(ctr) })
	return endpoint, image, nil
}

func terminate(ctr *tcdynamodb.DynamoDBContainer) {
	if ctr == nil {
		return
	}
	if err := testcontainers.TerminateContainer(ctr); err != nil {
		fmt.Fprintf(os.Stderr, "ddbtest: %v\n", err)
	}
}
