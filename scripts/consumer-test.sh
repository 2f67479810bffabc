#!/usr/bin/env bash
# Tests examples/consumer, a module outside ddbkit, the way a user gets
# ddbkit: not through go.work or a replace directive, but with "go get" from
# a module proxy. scripts/modproxy publishes ddbkit and ddbtest from the
# working tree at one version into a file:// proxy; every other module
# comes from this machine's module cache, else from the usual proxy
# ("go env GOPROXY"). The consumer builds in a throwaway copy; the version
# published, unique to the run, is removed from the module cache at the
# end. (A throwaway module cache would be cleaner, but every dependency
# would then be recompiled from its new path: minutes instead of seconds.)
#
# DynamoDB: DYNAMODB_ENDPOINT when set, else ddbtest's own provisioning
# (DDBTEST_DOWNLOAD=1, from the cache that make test filled), so that the
# test also proves a consumer needs nothing of this repository to get one.
set -euo pipefail
cd "$(dirname "$0")/.."

fallback=$(go env GOPROXY)
modcache=$(go env GOMODCACHE)
goflags=$(go env GOFLAGS)
version="v0.0.0-$(date -u +%Y%m%d%H%M%S)-$(git rev-parse --short=12 HEAD 2>/dev/null || echo 000000000000)"

tmp=$(mktemp -d)
cleanup() {
	rm -rf "$tmp"
	local m
	for m in github.com/ddbkit/ddbkit github.com/ddbkit/ddbkit/ddbtest; do
		if [ -d "$modcache/$m@$version" ]; then
			chmod -R u+w "$modcache/$m@$version"
			rm -rf "$modcache/$m@$version"
		fi
		rm -f "$modcache/cache/download/$m/@v/$version".* "$modcache/cache/download/$m/@v/list"
	done
}
trap cleanup EXIT

go run ./scripts/modproxy -dir "$tmp/proxy" -version "$version"
cp -R examples/consumer "$tmp/consumer"
# The checksums this repository already verified, so that go get needs the
# checksum database only for what they lack.
sort -u go.sum ddbtest/go.sum >"$tmp/consumer/go.sum"

cd "$tmp/consumer"
export GOWORK=off
export GOPROXY="file://$tmp/proxy,$fallback"
# The proxy's ddbkit is not in the public checksum database.
export GONOSUMDB='github.com/ddbkit/*'
export GOFLAGS="$goflags -mod=mod"
if [ -z "${DYNAMODB_ENDPOINT:-}" ]; then
	unset DYNAMODB_LOCAL_JAR
	export DDBTEST_DOWNLOAD=1
fi

echo "consumer-test.sh: go get github.com/ddbkit/ddbkit@$version and its ddbtest" >&2
# go get lists every module it adds; show that only when it fails.
if ! go get "github.com/ddbkit/ddbkit@$version" "github.com/ddbkit/ddbkit/ddbtest@$version" 2>"$tmp/get.log"; then
	cat "$tmp/get.log" >&2
	exit 1
fi
# What go get gave: no test-only module may reach the service's own build.
if go list -deps . | grep -E 'testcontainers|docker'; then
	echo "consumer-test.sh: the service's build depends on test-only modules" >&2
	exit 1
fi
DDBTEST_REQUIRED=1 go test -race -count=1 -v ./...
