# ddbkit is three modules in one workspace (go.work): the root module,
# ddbtest (see ddbtest/doc.go for why) and bench, the comparative
# benchmarks (bench/doc.go). "./..." at the root reaches neither, so every
# command names them.

GO ?= go
PKGS := ./... ./ddbtest/... ./bench/...

# STATICCHECK runs staticcheck at a fixed version through "go run", so that
# it stays out of go.mod (users never build it) and every machine runs the
# same checks.
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

# timeout bounds "docker info" where coreutils has it.
TIMEOUT := $(if $(shell command -v timeout 2>/dev/null),timeout 10)

# dynamodb_env chooses the DynamoDB Local the tests use, in the order ddbtest
# tries them: DYNAMODB_ENDPOINT or DYNAMODB_LOCAL_JAR when already set, else
# Docker when "docker info" answers, else the jar that
# scripts/dynamodb-local.sh fetches into a cache outside the repository
# (through "go run ./cmd/ddbkit local -print-jar", the code ddbtest's
# DDBTEST_DOWNLOAD=1 runs).
dynamodb_env = \
	if [ -n "$${DYNAMODB_ENDPOINT:-}$${DYNAMODB_LOCAL_JAR:-}" ]; then \
		echo "make: DynamoDB Local: $${DYNAMODB_ENDPOINT:-$$DYNAMODB_LOCAL_JAR}" >&2; \
	elif command -v docker >/dev/null 2>&1 && $(TIMEOUT) docker info >/dev/null 2>&1; then \
		echo "make: DynamoDB Local: Docker" >&2; \
	else \
		DYNAMODB_LOCAL_JAR="$$(scripts/dynamodb-local.sh)" || exit 1; \
		export DYNAMODB_LOCAL_JAR; \
		echo "make: DynamoDB Local: $$DYNAMODB_LOCAL_JAR" >&2; \
	fi

.PHONY: test consumer-test diff bench fuzz fmt-check vet staticcheck deps-check api tidy

# test runs every test against DynamoDB Local; DDBTEST_REQUIRED=1 turns a
# missing DynamoDB Local into a failure instead of a skip. Then it tests
# examples/consumer, a module outside ddbkit, as "go get" gives ddbkit to a
# user (scripts/consumer-test.sh).
# The benchmarks of bench run once each, under -short, so that a change
# that breaks one (a stub that no longer matches the calls) fails here.
# -timeout: a package's tests wait on DynamoDB Local, which a busy
# machine slows several times over; go test's default of 10m is too tight.
# Two guards keep the API honest: TestAPI (internal/apicheck) fails when
# the exported API differs from its record, api/*.txt, so that no change
# of it goes unseen or without its CHANGELOG line ("make api" rewrites the
# record); staticcheck fails on dead code and, through SA1019, on any use
# of a deprecated name inside the repository, so that every caller moves
# to the new name in the commit that deprecates the old one.
test: fmt-check vet staticcheck deps-check
	@$(dynamodb_env); \
	DDBTEST_REQUIRED=1 $(GO) test -race -count=1 -timeout 30m $(PKGS) && \
	DDBTEST_REQUIRED=1 $(GO) test -short -count=1 -run='^$$' -bench=. -benchtime=1x ./bench/... >/dev/null && \
	scripts/consumer-test.sh

consumer-test:
	@$(dynamodb_env); \
	scripts/consumer-test.sh

# diff runs the model tests of issue 14 long: every domain's memory store
# against its DynamoDB store on DynamoDB Local, DDBKIT_DIFF_OPS operations
# per domain and variant (10,000 unless set), the sharded layouts of
# issue 25 included. make test runs them short. It takes about an hour:
# taskmgmt's four variants alone pass go test's 60 minutes on one
# DynamoDB Local.
DDBKIT_DIFF_OPS ?= 10000
diff:
	@$(dynamodb_env); \
	DDBKIT_DIFF_OPS=$(DDBKIT_DIFF_OPS) DDBTEST_REQUIRED=1 $(GO) test -count=1 -timeout 180m -v \
		-run 'TestModel(Faults)?(Sharded)?$$|TestModelRoomCheckCache$$' ./todo/ ./livecomment/ ./wardrobe/ ./taskmgmt/ ./kondate/ | grep -E '^(ok|FAIL|---|\s+.*difftest:)'

# bench runs the comparative benchmarks of issues 15 and 40 (bench/doc.go)
# through bench/cmd/benchrun, which writes their whole table, with the
# machine, the commit and the run's duration, to bench/RESULTS.md (commit
# it with every change that touches performance), then the
# micro-benchmarks of internal/. It takes under 20 minutes on two cores
# (after 15, benchrun's -hurry gives each remaining figure 2 rounds).
# BENCH selects benchmarks by name (go test -bench; a partial run writes
# bench/RESULTS-partial.md instead); BENCHFLAGS=-short checks the
# plumbing in a few minutes, one call per variant. The environment
# overrides the plan of rounds (bench.DefaultPlan: BENCH_MAX_ROUNDS, ...).
# One benchmark by hand: cd bench && go test -run='^$$' -bench='^BenchmarkTodo$$/^CreateUser$$' -benchtime=1x ./todo
BENCH ?= .
BENCHFLAGS ?=
bench:
	@$(dynamodb_env); \
	(cd bench && $(GO) run ./cmd/benchrun -bench='$(BENCH)' $(BENCHFLAGS)) && \
	$(GO) test -run='^$$' -bench='$(BENCH)' -benchmem ./internal/...

# fuzz runs every fuzz target of the three modules (issue 39) for
# FUZZTIME each, one after another, and prints the executions of each
# (scripts/fuzz.sh). Targets are found with go test -list, so a new one
# needs no edit here. make test runs only their seeds, as every go test
# does. A target that fails leaves its input under its package's
# testdata/fuzz/ to commit, with the fix, as a regression seed.
FUZZTIME ?= 30s
fuzz:
	@FUZZTIME=$(FUZZTIME) GO=$(GO) scripts/fuzz.sh

fmt-check:
	@files="$$(gofmt -l .)"; \
	if [ -n "$$files" ]; then \
		echo "gofmt -l: these files need formatting:" >&2; \
		echo "$$files" >&2; \
		exit 1; \
	fi

vet:
	$(GO) vet $(PKGS)

# staticcheck runs its default checks over the three modules. Its first run
# takes a few minutes; its cache makes the next ones quick.
staticcheck:
	$(STATICCHECK) $(PKGS)

# api rewrites api/ddbkit.txt and api/ddbtest.txt, the record of the
# exported API that TestAPI holds the code to (internal/apicheck says how).
api:
	$(GO) run ./internal/apicheck/cmd/api

# deps-check keeps Docker, testcontainers, the benchmarks' baseline
# (guregu/dynamo) and the OpenTelemetry SDK and otelaws out of what users
# build: only ddbtest, bench, tests, examples and internal/obstest (the
# telemetry tests' helper, over ddbtest) may import them; the library
# depends on the OpenTelemetry API alone.
deps-check:
	@bad="$$($(GO) list -deps $$($(GO) list ./... | grep -v -e /examples/ -e /internal/obstest) | grep -E 'testcontainers|docker|guregu|go.opentelemetry.io/otel/sdk|otelaws' || true)"; \
	if [ -n "$$bad" ]; then \
		echo "production packages depend on test-only modules:" >&2; \
		echo "$$bad" >&2; \
		exit 1; \
	fi

# tidy tidies the three modules. The root module's tests import ddbtest, which
# only the workspace resolves, hence -e (it reports that import, and goes on).
# The checks catch tidy pulling ddbtest in from a proxy, which would raise
# the root's go line.
tidy:
	cd ddbtest && $(GO) mod tidy
	cd bench && GOWORK=off GOFLAGS=-mod=mod $(GO) mod tidy -e
	GOWORK=off $(GO) mod tidy -e
	@grep -qxE 'go 1\.24(\.0)?' go.mod || { \
		echo "go.mod: the go line must stay 'go 1.24' or 'go 1.24.0', which tidy writes once a dependency declares it (ddbtest/doc.go says why); it is now:" >&2; \
		grep '^go ' go.mod >&2; \
		exit 1; \
	}
	@! grep -nE 'ddbkit/ddbtest|testcontainers' go.mod || { \
		echo "go.mod: the root module must not require ddbtest or testcontainers (ddbtest/doc.go says why)" >&2; \
		exit 1; \
	}
