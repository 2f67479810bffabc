package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbkit/ddbkit/internal/dynamodblocal"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/schema"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

const usage = `usage: ddbkit COMMAND [flags] [DOMAIN]

commands:
  ensure   create DOMAIN's missing tables, verify existing ones (-apply: add what they lack)
  plan     print what ensure -apply would change; change nothing
  export   print DOMAIN's tables as CloudFormation resources or CreateTableInput JSON
           (taskmgmt: a template with the stream handler's event source mapping too)
  local    start DynamoDB Local and print its endpoint (-print-jar: print the jar's path);
           it listens on every network interface, not only loopback
  migrate  run a one-off data migration, resumably (MIGRATION: kondate-saves)
  iam      print the least-privilege IAM policy of DOMAIN's store interface (-interface),
           of its deploy role (-deploy), or of taskmgmt's stream handler (-stream)
  smoke    write, read back through every read path, and delete test items in a partition
           of their own on DOMAIN's deployed tables; safe on production (-timeout: GSI lag)

domains: todo, taskmgmt, livecomment, kondate, wardrobe
"ddbkit COMMAND -h" lists a command's flags.
`

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

// run is main without the process: it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "ddbkit:", oneLine(strings.TrimSuffix(err.Error(), ": "+errUsage.Error())))
		return 2
	default:
		fmt.Fprintln(stderr, "ddbkit:", oneLine(err.Error()))
		return 1
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), errUsage)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageErr("no command")
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "ensure", "plan":
		return ensure(ctx, cmd, rest, stdout, stderr)
	case "export":
		return export(cmd, rest, stdout, stderr)
	case "local":
		return local(ctx, rest, stdout, stderr)
	case "migrate":
		return migrate(ctx, rest, stdout, stderr)
	case "iam":
		return iamPolicy(cmd, rest, stdout, stderr)
	case "smoke":
		return smoke(ctx, rest, stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return usageErr("unknown command %q", cmd)
	}
}

// tableFlags name a domain's tables.
type tableFlags struct {
	table, invitationTable, env string
}

func (f *tableFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.table, "table", "", "table name of todo, kondate or wardrobe, or taskmgmt's task table (default: the design's)")
	fs.StringVar(&f.invitationTable, "invitation-table", taskmgmt.DefaultInvitationTableName, "taskmgmt's invitation table name")
	fs.StringVar(&f.env, "env", livecomment.DefaultEnv, "livecomment's environment, as in LiveComment-Rooms-{env}")
}

// definitions returns the domain's table designs under the names f gives.
func (f *tableFlags) definitions(domain string) ([]schema.Definition, error) {
	name := func(def string) string {
		if f.table != "" {
			return f.table
		}
		return def
	}
	if domain != "livecomment" && f.env != livecomment.DefaultEnv {
		return nil, usageErr("-env is for livecomment only")
	}
	if domain != "taskmgmt" && f.invitationTable != taskmgmt.DefaultInvitationTableName {
		return nil, usageErr("-invitation-table is for taskmgmt only")
	}
	switch domain {
	case "todo":
		return []schema.Definition{todo.Definition(name(todo.TableName()))}, nil
	case "taskmgmt":
		return []schema.Definition{taskmgmt.Definition(name(taskmgmt.DefaultTableName)), taskmgmt.InvitationDefinition(f.invitationTable)}, nil
	case "livecomment":
		if f.table != "" {
			return nil, usageErr("livecomment has three tables: name them with -env, not -table")
		}
		if err := livecomment.CheckEnv(f.env); err != nil {
			return nil, usageErr("-env: %v", err)
		}
		return livecomment.Definitions(f.env), nil
	case "kondate":
		return []schema.Definition{kondate.Definition(name(kondate.DefaultTableName))}, nil
	case "wardrobe":
		return []schema.Definition{wardrobe.Definition(name(wardrobe.DefaultTableName))}, nil
	}
	return nil, usageErr("unknown domain %q (want todo, taskmgmt, livecomment, kondate or wardrobe)", domain)
}

func newFlagSet(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ddbkit "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: ddbkit %s [flags] %s\n\nflags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and returns the one DOMAIN argument.
func parse(fs *flag.FlagSet, args []string) (string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", err
		}
		return "", usageErr("%v", err)
	}
	if fs.NArg() != 1 {
		return "", usageErr("%s: want one DOMAIN argument after the flags, got %d", fs.Name(), fs.NArg())
	}
	return fs.Arg(0), nil
}

func ensure(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(cmd, "DOMAIN", stderr)
	var tf tableFlags
	tf.register(fs)
	conn := connFlags(fs)
	timeout := fs.Duration("timeout", 10*time.Minute, "bound on each wait for a table or index to become ACTIVE")
	var apply *bool
	if cmd == "ensure" {
		apply = fs.Bool("apply", false, "add what an existing table lacks (indexes, TTL, stream); without it an existing table is only verified")
	}
	domain, err := parse(fs, args)
	if err != nil {
		return err
	}
	defs, err := tf.definitions(domain)
	if err != nil {
		return err
	}
	c, err := conn(ctx)
	if err != nil {
		return err
	}
	opts := func(o *schema.Options) {
		o.PlanOnly = cmd == "plan"
		o.Apply = apply != nil && *apply
		o.Timeout = *timeout
	}
	for _, d := range defs {
		changes, err := schema.Ensure(ctx, c, d, opts)
		upToDate := true
		for _, ch := range changes {
			fmt.Fprintln(stdout, ch)
			upToDate = upToDate && ch.Action == schema.ActionNote
		}
		if err != nil {
			return err
		}
		if upToDate {
			fmt.Fprintf(stdout, "%s: up to date\n", d.Name())
		}
	}
	return nil
}

// connFlags registers -endpoint and -region on fs, and returns what makes
// the client they name (after fs is parsed).
func connFlags(fs *flag.FlagSet) func(ctx context.Context) (*dynamodb.Client, error) {
	endpoint := fs.String("endpoint", "", "DynamoDB endpoint URL, such as http://127.0.0.1:8000 (default: the AWS configuration's)")
	region := fs.String("region", "", "AWS region (default: the AWS configuration's)")
	return func(ctx context.Context) (*dynamodb.Client, error) { return client(ctx, *endpoint, *region) }
}

func client(ctx context.Context, endpoint, region string) (*dynamodb.Client, error) {
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		return nil, usageErr("no AWS region: pass -region or set AWS_REGION")
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

var notLogicalID = regexp.MustCompile(`[^A-Za-z0-9]`)

func export(cmd string, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(cmd, "DOMAIN", stderr)
	var tf tableFlags
	tf.register(fs)
	format := fs.String("format", "cloudformation", "cloudformation (AWS::DynamoDB::Table resources; for taskmgmt, a template with its stream's AWS::Lambda::EventSourceMapping; for kondate, a template whose GSI2 and GSI3 are behind parameters) or input (CreateTableInput JSON)")
	domain, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *format != "cloudformation" && *format != "input" {
		return usageErr("-format %q: want cloudformation or input", *format)
	}
	defs, err := tf.definitions(domain)
	if err != nil {
		return err
	}
	out := map[string]json.RawMessage{}
	for _, d := range defs {
		var b []byte
		if *format == "cloudformation" {
			b, err = d.CloudFormation()
		} else {
			b, err = inputJSON(d.CreateTableInput())
		}
		if err != nil {
			return err
		}
		id := notLogicalID.ReplaceAllString(d.Name(), "")
		if _, dup := out[id]; dup {
			return usageErr("two tables have the logical ID %s: name them apart", id)
		}
		out[id] = b
	}
	var v any = out
	if domain == "kondate" && *format == "cloudformation" {
		// The seed's section 10 rolls GSI2 and GSI3 out one deploy at a
		// time: the template holds them behind Parameters and Conditions.
		d := kondate.Definition(defs[0].Name(), kondate.AllIndexes)
		b, err := d.StagedTemplate(notLogicalID.ReplaceAllString(d.Name(), ""), "GSI2", "GSI3")
		if err != nil {
			return err
		}
		v = json.RawMessage(b)
	}
	if domain == "taskmgmt" && *format == "cloudformation" {
		if v, err = mailerTemplate(out, notLogicalID.ReplaceAllString(tf.invitationTable, "")); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

// The logical IDs of taskmgmt's stream handler in its template.
const (
	mailerFunctionParam    = "InvitationMailerFunction"
	mailerDestinationParam = "InvitationMailerOnFailureDestination"
	mailerMapping          = "InvitationMailerMapping"
)

// template is a whole CloudFormation template.
type template struct {
	AWSTemplateFormatVersion string
	Description              string
	Parameters               map[string]parameter
	Resources                map[string]json.RawMessage
}

type parameter struct {
	Type        string
	Description string
	MinLength   int
}

// mailerTemplate returns taskmgmt's template: its tables (resources, by
// logical ID), and the event source mapping of taskmgmt.StreamHandler on
// the stream of the invitation table (logical ID invitationTable), whose
// function and on-failure destination are the template's Parameters.
func mailerTemplate(resources map[string]json.RawMessage, invitationTable string) (template, error) {
	for _, id := range []string{mailerFunctionParam, mailerDestinationParam, mailerMapping} {
		if _, dup := resources[id]; dup {
			return template{}, usageErr("a table's logical ID is %s, which the stream handler's template uses: name the table otherwise", id)
		}
	}
	ref := func(id string) map[string]string { return map[string]string{"Ref": id} }
	b, err := taskmgmt.InvitationStreamMapping().CloudFormation(ref(mailerFunctionParam),
		map[string][]string{"Fn::GetAtt": {invitationTable, "StreamArn"}}, ref(mailerDestinationParam))
	if err != nil {
		return template{}, err
	}
	all := maps.Clone(resources)
	all[mailerMapping] = b
	return template{
		AWSTemplateFormatVersion: "2010-09-09",
		Description:              "ddbkit taskmgmt: the task table, the invitation table, and the event source mapping of the Lambda function that mails invitations from the invitation table's stream (taskmgmt.StreamHandler)",
		Parameters: map[string]parameter{
			mailerFunctionParam: {Type: "String", MinLength: 1,
				Description: "Name or ARN of the Lambda function that runs taskmgmt.StreamHandler; its role may call dynamodb:DescribeStream, GetRecords, GetShardIterator and ListStreams on the stream, and send to the on-failure destination"},
			mailerDestinationParam: {Type: "String", MinLength: 1,
				Description: "ARN of the SQS queue or SNS topic to which Lambda sends the shard and sequence numbers of a batch it gives up on"},
		},
		Resources: all,
	}, nil
}

// inputJSON renders in with the SDK's field names, which are the API's,
// leaving out what is unset.
func inputJSON(in *dynamodb.CreateTableInput) ([]byte, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	v, _ = prune(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

// prune drops nulls, empty strings, lists and objects; keep is false when
// v itself is empty.
func prune(v any) (any, bool) {
	switch x := v.(type) {
	case nil:
		return nil, false
	case string:
		return x, x != ""
	case []any:
		var out []any
		for _, e := range x {
			if e, ok := prune(e); ok {
				out = append(out, e)
			}
		}
		return out, len(out) > 0
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := map[string]any{}
		for _, k := range keys {
			if e, ok := prune(x[k]); ok {
				out[k] = e
			}
		}
		return out, len(out) > 0
	}
	return v, true
}

const localUsage = `usage: ddbkit local [flags]

Starts DynamoDB Local in memory, with one database for every access key
(-sharedDb), prints its endpoint (http://127.0.0.1:PORT) and runs until
interrupted.

DynamoDB Local listens on every network interface, not only loopback: the
jar has no option to bind one address, and it checks no credentials. On a
machine reachable from a network you do not trust, block the port with a
firewall, or run ddbkit local (and its clients) in a network namespace of
their own, such as "unshare -rn".

flags:
`

// exposureWarning goes to standard error when local starts the jar: the
// endpoint it prints says 127.0.0.1, and the warning says what it hides.
const exposureWarning = `ddbkit: warning: DynamoDB Local listens on port %s of every network interface,
not only 127.0.0.1: the jar has no option to bind one address, and it checks no
credentials, so whoever can reach this machine can read and write its tables.
Where the network is not trusted, block the port with a firewall, or run ddbkit
local and its clients in a network namespace of their own (e.g. unshare -rn).
`

func local(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("local", "", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, localUsage)
		fs.PrintDefaults()
	}
	printJar := fs.Bool("print-jar", false, "only provision DynamoDBLocal.jar and print its path")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageErr("%v", err)
	}
	if fs.NArg() != 0 {
		return usageErr("local takes no arguments, got %q", fs.Args())
	}
	jar := strings.TrimSpace(os.Getenv("DYNAMODB_LOCAL_JAR"))
	if jar == "" {
		var err error
		jar, err = dynamodblocal.Jar(ctx, dynamodblocal.Options{Log: stderr})
		if err != nil {
			return err
		}
	}
	if *printJar {
		_, err := fmt.Fprintln(stdout, jar)
		return err
	}
	p, err := dynamodblocal.Start(jar, dynamodblocal.StartOptions{SharedDB: true})
	if err != nil {
		return err
	}
	defer p.Stop()
	port := p.Endpoint
	if u, err := url.Parse(p.Endpoint); err == nil {
		port = u.Port()
	}
	fmt.Fprintf(stderr, exposureWarning, port)
	fmt.Fprintln(stdout, p.Endpoint)
	select {
	case <-ctx.Done():
		return nil
	case <-p.Exited():
		return errors.New("DynamoDB Local exited")
	}
}
