// Package bench holds ddbkit's comparative benchmarks (issue 15), in a
// module of its own so that their baselines never become ddbkit's
// dependencies.
//
// Each domain's benchmarks are in a package of their own (bench/todo,
// bench/wardrobe, ...), on the shared [Compare], [Stub] and helpers of this
// one. Each domain has three benchmarks, every one a [Compare] of variants run
// in interleaved rounds, so that what is reported is a ratio measured in
// one run rather than two absolute times:
//
//   - Benchmark<Domain>/<Operation>: the DynamoDB store's operation against
//     a minimal hand-written aws-sdk-go-v2 + attributevalue version of the
//     same calls (x-handwritten; target at most 1.1) and against
//     guregu/dynamo v2 (x-guregu; target at most 1.0), all on a [Stub]
//     transport that answers every variant with the same canned responses.
//     Compare checks first that the variants make the same calls.
//   - Benchmark<Domain>Fake/<Operation>: the DynamoDB store on DynamoDB
//     Local against the memory store (x-memory: how many times faster the
//     fake is; target at least 100).
//   - Benchmark<Domain>Page/<Listing>: a memory store's page from the middle
//     of 100,000 items against one from the middle of 1,000 ([Growth];
//     x-1k; target at most 1.1).
//
// "make bench" runs them all and prints the ratios as a table; "make test"
// runs each once, under -short, so that they stay correct.
package bench
