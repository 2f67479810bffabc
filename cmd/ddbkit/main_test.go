package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/ddbtest"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/wardrobe"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// ddbkit runs the command in process and returns its exit status, stdout
// and stderr.
func ddbkit(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(t.Context(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// awsEnv points the standard AWS configuration at ddbtest's DynamoDB
// Local database (its access key and region) and away from any files.
func awsEnv(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "ddbtest")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ddbtest")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
}

func tableExists(t *testing.T, c *dynamodb.Client, name string) bool {
	t.Helper()
	_, err := c.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	if errors.As(err, &nf) {
		return false
	}
	if err != nil {
		t.Fatalf("DescribeTable %s: %v", name, err)
	}
	return true
}

func deleteTables(t *testing.T, c *dynamodb.Client, names ...string) {
	t.Cleanup(func() {
		for _, n := range names {
			c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(n)})
		}
	})
}

func TestPlanChangesNothingAndEnsureCreates(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	env := ddbtest.UniqueName("cmd")
	lc := livecomment.Tables(env)
	tests := []struct {
		domain string
		flags  []string
		tables []string
	}{
		{"todo", []string{"-table", ddbtest.UniqueName("todo")}, nil},
		{"kondate", []string{"-table", ddbtest.UniqueName("kondate")}, nil},
		{"wardrobe", []string{"-table", ddbtest.UniqueName("wardrobe")}, nil},
		{"taskmgmt", []string{"-table", ddbtest.UniqueName("task"), "-invitation-table", ddbtest.UniqueName("inv")}, nil},
		{"livecomment", []string{"-env", env}, []string{lc.Rooms, lc.Comments, lc.Connections}},
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			tables := tt.tables
			for i := 0; i < len(tt.flags); i += 2 {
				if strings.HasSuffix(tt.flags[i], "table") {
					tables = append(tables, tt.flags[i+1])
				}
			}
			deleteTables(t, c, tables...)
			args := func(verb string) []string {
				return append(append([]string{verb, "-endpoint", ep}, tt.flags...), tt.domain)
			}

			code, out, errOut := ddbkit(t, args("plan")...)
			if code != 0 {
				t.Fatalf("plan: exit %d, stderr %q", code, errOut)
			}
			for _, n := range tables {
				if !strings.Contains(out, n+": create table") {
					t.Errorf("plan output %q does not say it would create %s", out, n)
				}
				if tableExists(t, c, n) {
					t.Errorf("plan created table %s", n)
				}
			}

			code, out, errOut = ddbkit(t, args("ensure")...)
			if code != 0 {
				t.Fatalf("ensure: exit %d, stderr %q", code, errOut)
			}
			for _, n := range tables {
				if !strings.Contains(out, n+": create table") || !tableExists(t, c, n) {
					t.Errorf("ensure did not create %s; output %q", n, out)
				}
			}

			code, out, errOut = ddbkit(t, args("plan")...)
			if code != 0 || strings.Contains(out, "create table") {
				t.Fatalf("plan after ensure: exit %d, stdout %q, stderr %q; want no changes", code, out, errOut)
			}
			for _, n := range tables {
				if !strings.Contains(out, n+": up to date") {
					t.Errorf("plan after ensure: %q does not say %s is up to date", out, n)
				}
			}
		})
	}
}

func TestEnsureMismatchIsOneLineAndExitsOne(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	// A table named like todo's with other keys.
	name := ddbtest.NewTable(t, c, &dynamodb.CreateTableInput{
		TableName:            aws.String("other"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
	})
	for _, verb := range []string{"plan", "ensure"} {
		code, out, errOut := ddbkit(t, verb, "-endpoint", ep, "-table", name, "todo")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", verb, code)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "ddbkit: ") || !strings.Contains(errOut, "mismatch") {
			t.Errorf("%s: stderr %q, want one line naming the mismatch", verb, errOut)
		}
		if out != "" {
			t.Errorf("%s: stdout %q, want nothing", verb, out)
		}
	}
}

// TestEnsureVerifiesExistingTables: an existing table that lacks one of
// the design's GSIs (as a stack's table would before its next deploy) is
// verified, not changed: ensure exits 1 with one line that says how to add
// it, and prints the pending change; ensure -apply adds it; plan then says
// the table is up to date.
func TestEnsureVerifiesExistingTables(t *testing.T) {
	ep := ddbtest.Endpoint(t)
	c := ddbtest.Client(t)
	awsEnv(t)
	in := wardrobe.CreateTableInput("wardrobe-stack")
	in.GlobalSecondaryIndexes = slices.DeleteFunc(in.GlobalSecondaryIndexes, func(g types.GlobalSecondaryIndex) bool {
		return aws.ToString(g.IndexName) == "HistoryByDate"
	})
	in.AttributeDefinitions = slices.DeleteFunc(in.AttributeDefinitions, func(a types.AttributeDefinition) bool {
		return aws.ToString(a.AttributeName) == "dateSk"
	})
	name := ddbtest.NewTable(t, c, in)
	gsis := func() int {
		out, err := c.DescribeTable(t.Context(), &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Table.GlobalSecondaryIndexes)
	}
	before := gsis()

	code, out, errOut := ddbkit(t, "ensure", "-endpoint", ep, "-table", name, "wardrobe")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `GSI "HistoryByDate" is missing`) || !strings.Contains(errOut, "-apply") {
		t.Errorf("ensure of a table lacking a GSI: exit %d, stderr %q; want 1 and one line naming the GSI and -apply", code, errOut)
	}
	if !strings.Contains(out, `add GSI "HistoryByDate"`) || !strings.Contains(out, "(pending)") {
		t.Errorf("ensure: stdout %q, want the pending GSI", out)
	}
	if got := gsis(); got != before {
		t.Fatalf("ensure without -apply changed the table: %d GSIs, had %d", got, before)
	}

	if code, out, errOut := ddbkit(t, "ensure", "-apply", "-endpoint", ep, "-table", name, "wardrobe"); code != 0 || !strings.Contains(out, `add GSI "HistoryByDate"`) || strings.Contains(out, "pending") {
		t.Fatalf("ensure -apply: exit %d, stdout %q, stderr %q; want the GSI added", code, out, errOut)
	}
	if got := gsis(); got != before+1 {
		t.Errorf("after ensure -apply: %d GSIs, want %d", got, before+1)
	}
	if code, out, _ := ddbkit(t, "plan", "-endpoint", ep, "-table", name, "wardrobe"); code != 0 || !strings.Contains(out, name+": up to date") {
		t.Errorf("plan after ensure -apply: exit %d, stdout %q; want up to date", code, out)
	}
}

func TestUsageAndErrors(t *testing.T) {
	awsEnv(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no command", nil, 2, "no command"},
		{"unknown command", []string{"destroy", "todo"}, 2, `unknown command "destroy"`},
		{"unknown domain", []string{"export", "shop"}, 2, `unknown domain "shop"`},
		{"no domain", []string{"plan"}, 2, "want one DOMAIN"},
		{"two domains", []string{"export", "todo", "kondate"}, 2, "want one DOMAIN"},
		{"unknown flag", []string{"plan", "-nope", "todo"}, 2, "-nope"},
		{"env on todo", []string{"export", "-env", "prod", "todo"}, 2, "-env is for livecomment only"},
		{"table on livecomment", []string{"export", "-table", "x", "livecomment"}, 2, "-env, not -table"},
		{"bad env", []string{"export", "-env", "a b", "livecomment"}, 2, "-env"},
		{"bad format", []string{"export", "-format", "yaml", "todo"}, 2, "-format"},
		{"endpoint that does not answer", []string{"ensure", "-endpoint", "http://127.0.0.1:1", "todo"}, 1, "127.0.0.1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := ddbkit(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.wantCode, errOut)
			}
			last := errOut[strings.LastIndex(strings.TrimSuffix(errOut, "\n"), "\n")+1:]
			if !strings.HasPrefix(last, "ddbkit: ") || !strings.Contains(last, tt.wantErr) || !strings.HasSuffix(last, "\n") {
				t.Errorf("stderr's last line %q, want one line starting ddbkit: and containing %q", last, tt.wantErr)
			}
		})
	}

	code, out, _ := ddbkit(t, "plan", "-h")
	if code != 0 || out != "" {
		t.Errorf("plan -h: exit %d, stdout %q; want 0 and the flags on stderr", code, out)
	}
}

func TestExport(t *testing.T) {
	t.Run("cloudformation", func(t *testing.T) {
		code, out, errOut := ddbkit(t, "export", "-table", "my-todos", "todo")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got map[string]struct {
			Type       string
			Properties struct{ TableName string }
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, out)
		}
		r, ok := got["mytodos"]
		if len(got) != 1 || !ok || r.Type != "AWS::DynamoDB::Table" || r.Properties.TableName != "my-todos" {
			t.Errorf("export = %s, want one AWS::DynamoDB::Table resource mytodos for table my-todos", out)
		}
		// The other domains export their tables only, ready to merge into
		// a template's Resources (taskmgmt's and kondate's are whole
		// templates).
		for _, domain := range []string{"todo", "livecomment", "wardrobe"} {
			code, out, errOut := ddbkit(t, "export", domain)
			var got map[string]struct{ Type string }
			if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) == 0 {
				t.Fatalf("export %s: exit %d, %v: %s%s", domain, code, err, out, errOut)
			}
			for id, r := range got {
				if r.Type != "AWS::DynamoDB::Table" {
					t.Errorf("export %s: %s is %q, want only AWS::DynamoDB::Table resources", domain, id, r.Type)
				}
			}
		}
	})
	t.Run("taskmgmt template", func(t *testing.T) {
		for _, tt := range []struct {
			name                string
			args                []string
			taskTable, invTable string // logical IDs
		}{
			{"default names", nil, "tasktablev3", "tasktableinvitationv3"},
			{"named tables", []string{"-table", "tasks", "-invitation-table", "prod.invitations"}, "tasks", "prodinvitations"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				args := append(append([]string{"export"}, tt.args...), "taskmgmt")
				code, out, errOut := ddbkit(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				checkMailerTemplate(t, out, tt.taskTable, tt.invTable)
			})
		}
	})
	// kondate's template rolls GSI2 and GSI3 out as the seed's section 10
	// says: each behind a Parameter and a Condition of its own, GSI1
	// always there (schema's TestStagedTemplate resolves the conditions).
	t.Run("kondate staged template", func(t *testing.T) {
		code, out, errOut := ddbkit(t, "export", "-table", "Main-Table", "kondate")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var tpl struct {
			Parameters map[string]struct{ Default string }
			Conditions map[string]any
			Resources  map[string]struct {
				Type       string
				Properties struct {
					TableName              string
					GlobalSecondaryIndexes []json.RawMessage
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &tpl); err != nil {
			t.Fatalf("output is not a template: %v\n%s", err, out)
		}
		r, ok := tpl.Resources["MainTable"]
		if len(tpl.Resources) != 1 || !ok || r.Type != "AWS::DynamoDB::Table" || r.Properties.TableName != "Main-Table" {
			t.Fatalf("export kondate = %s, want the one table MainTable named Main-Table", out)
		}
		for _, ix := range []string{"GSI2", "GSI3"} {
			if p, ok := tpl.Parameters["Enable"+ix]; !ok || p.Default != "false" {
				t.Errorf("Parameter Enable%s = %+v, %v; want one, default false", ix, p, ok)
			}
			if _, ok := tpl.Conditions[ix+"Enabled"]; !ok {
				t.Errorf("no Condition %sEnabled", ix)
			}
		}
		var conditioned []string
		for _, g := range r.Properties.GlobalSecondaryIndexes {
			var x struct {
				IndexName string
				If        []json.RawMessage `json:"Fn::If"`
			}
			if err := json.Unmarshal(g, &x); err != nil {
				t.Fatal(err)
			}
			switch {
			case x.IndexName == "GSI1":
			case len(x.If) == 3:
				var c string
				json.Unmarshal(x.If[0], &c)
				conditioned = append(conditioned, c)
			default:
				t.Errorf("GSI %s: neither GSI1 nor behind a condition", g)
			}
		}
		if !slices.Equal(conditioned, []string{"GSI2Enabled", "GSI3Enabled"}) {
			t.Errorf("conditioned GSIs %v, want one each behind GSI2Enabled and GSI3Enabled", conditioned)
		}
	})
	t.Run("logical IDs apart", func(t *testing.T) {
		for _, args := range [][]string{
			{"export", "-table", "same", "-invitation-table", "sa-me", "taskmgmt"},
			{"export", "-invitation-table", "InvitationMailerMapping", "taskmgmt"},
		} {
			if code, out, errOut := ddbkit(t, args...); code != 2 || out != "" || !strings.Contains(errOut, "logical ID") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error naming the logical ID", args, code, out, errOut)
			}
		}
	})
	t.Run("input", func(t *testing.T) {
		code, out, errOut := ddbkit(t, "export", "-format", "input", "taskmgmt")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got map[string]dynamodb.CreateTableInput
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not CreateTableInput JSON: %v\n%s", err, out)
		}
		task, inv := got["tasktablev3"], got["tasktableinvitationv3"]
		if len(got) != 2 || aws.ToString(task.TableName) != "task-table-v3" || len(task.GlobalSecondaryIndexes) != 9 ||
			aws.ToString(inv.TableName) != "task-table-invitation-v3" {
			t.Errorf("export = %s, want taskmgmt's two tables, the task table with 9 GSIs", out)
		}
		if strings.Contains(out, "null") {
			t.Errorf("export prints unset fields as null:\n%s", out)
		}
	})
}

// testTarball is a DynamoDB Local tarball in miniature, and its SHA-256.
func testTarball(t *testing.T) ([]byte, string) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	body := "not really a jar"
	tw.WriteHeader(&tar.Header{Name: "DynamoDBLocal.jar", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	io.WriteString(tw, body)
	tw.Close()
	zw.Close()
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:])
}

func TestLocalUsageSaysItListensOnEveryInterface(t *testing.T) {
	code, out, _ := ddbkit(t, "help")
	if code != 0 || !strings.Contains(out, "every network interface") {
		t.Errorf("help: exit %d, stdout %q; want local described as listening on every network interface", code, out)
	}
	code, out, errOut := ddbkit(t, "local", "-h")
	if code != 0 || out != "" {
		t.Errorf("local -h: exit %d, stdout %q; want 0 and the usage on stderr", code, out)
	}
	for _, want := range []string{"usage: ddbkit local", "every network interface", "no option to bind", "firewall", "network namespace", "-print-jar"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("local -h printed %q, want it to contain %q", errOut, want)
		}
	}
}

func TestLocalPrintJarProvisionsFromAConfiguredURL(t *testing.T) {
	body, sum := testTarball(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	cache := t.TempDir()
	t.Setenv("DYNAMODB_LOCAL_JAR", "")
	t.Setenv("DDBKIT_CACHE", cache)
	t.Setenv("DYNAMODB_LOCAL_URL", srv.URL+"/d.tgz")

	t.Setenv("DYNAMODB_LOCAL_SHA256", strings.Repeat("0", 64))
	code, out, errOut := ddbkit(t, "local", "-print-jar")
	if code != 1 || out != "" || !strings.Contains(errOut, "SHA-256 is "+sum) || strings.Count(errOut, "\n") > 2 {
		t.Errorf("a wrong checksum: exit %d, stdout %q, stderr %q; want 1 and the mismatch", code, out, errOut)
	}

	t.Setenv("DYNAMODB_LOCAL_SHA256", sum)
	code, out, errOut = ddbkit(t, "local", "-print-jar")
	jar := strings.TrimSpace(out)
	if code != 0 || !strings.HasPrefix(jar, cache) || filepath.Base(jar) != "DynamoDBLocal.jar" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the jar's path under %s", code, out, errOut, cache)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLocalServesUntilInterrupted(t *testing.T) {
	if os.Getenv("DYNAMODB_LOCAL_JAR") == "" {
		// The jar comes with make test when there is no Docker; it is
		// what local starts.
		ddbtest.Endpoint(t)
		t.Skip("DYNAMODB_LOCAL_JAR is not set: ddbtest found DynamoDB Local elsewhere")
	}
	ctx, cancel := context.WithCancel(t.Context())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"local"}, &out, &errOut) }()

	var ep string
	for deadline := time.Now().Add(90 * time.Second); ep == "" && time.Now().Before(deadline); {
		select {
		case code := <-done:
			t.Fatalf("local exited %d: %s", code, errOut.String())
		case <-time.After(100 * time.Millisecond):
		}
		ep = strings.TrimSpace(out.String())
	}
	if !strings.HasPrefix(ep, "http://127.0.0.1:") {
		cancel()
		t.Fatalf("local printed %q, want an endpoint", ep)
	}
	// The endpoint says loopback; the warning says what it hides.
	port := ep[strings.LastIndex(ep, ":")+1:]
	if w := errOut.String(); !strings.Contains(w, "warning: DynamoDB Local listens on port "+port+" of every network interface") || !strings.Contains(w, "firewall") {
		t.Errorf("stderr %q, want the warning that port %s is open on every interface, with what to do", w, port)
	}
	// -sharedDb: a table made with one access key is seen with another.
	awsEnv(t)
	if code, _, errOut := ddbkit(t, "ensure", "-endpoint", ep, "-table", "shared", "todo"); code != 0 {
		t.Fatalf("ensure on ddbkit local: exit %d: %s", code, errOut)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "someoneelse")
	if code, out, errOut := ddbkit(t, "plan", "-endpoint", ep, "-table", "shared", "todo"); code != 0 || !strings.Contains(out, "up to date") {
		t.Errorf("plan with another access key: exit %d, stdout %q, stderr %q; want the table up to date", code, out, errOut)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("local exited %d after the interrupt: %s", code, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("local did not stop after the interrupt")
	}
}

// checkMailerTemplate checks taskmgmt's exported template: its two tables,
// and the event source mapping of the stream handler on the invitation
// table's stream, with InvitationStreamMapping's settings, whose function
// and on-failure destination are Parameters without defaults.
func checkMailerTemplate(t *testing.T, out, taskTable, invTable string) {
	t.Helper()
	type ref struct{ Ref string }
	var tpl struct {
		AWSTemplateFormatVersion string
		Parameters               map[string]struct {
			Type    string
			Default *string
		}
		Resources map[string]struct {
			Type       string
			Properties json.RawMessage
		}
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&tpl); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if tpl.AWSTemplateFormatVersion != "2010-09-09" {
		t.Errorf("AWSTemplateFormatVersion %q", tpl.AWSTemplateFormatVersion)
	}
	var tables []string
	for id, r := range tpl.Resources {
		if r.Type == "AWS::DynamoDB::Table" {
			tables = append(tables, id)
		}
	}
	slices.Sort(tables)
	want := []string{taskTable, invTable}
	slices.Sort(want)
	if len(tpl.Resources) != 3 || !slices.Equal(tables, want) {
		t.Fatalf("resources %v, want the tables %v and the mapping", tpl.Resources, want)
	}
	var inv struct {
		StreamSpecification struct{ StreamViewType string }
	}
	if err := json.Unmarshal(tpl.Resources[invTable].Properties, &inv); err != nil || inv.StreamSpecification.StreamViewType != "NEW_IMAGE" {
		t.Errorf("the invitation table's stream: %+v, %v", inv, err)
	}
	m, ok := tpl.Resources[mailerMapping]
	if !ok || m.Type != "AWS::Lambda::EventSourceMapping" {
		t.Fatalf("no AWS::Lambda::EventSourceMapping %s among %v", mailerMapping, tpl.Resources)
	}
	var p struct {
		FunctionName               ref
		EventSourceArn             map[string][]string
		StartingPosition           string
		BatchSize                  int
		FunctionResponseTypes      []string
		BisectBatchOnFunctionError *bool
		MaximumRetryAttempts       *int
		MaximumRecordAgeInSeconds  *int
		DestinationConfig          struct{ OnFailure struct{ Destination ref } }
		FilterCriteria             struct{ Filters []struct{ Pattern string } }
	}
	strict := json.NewDecoder(bytes.NewReader(m.Properties))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&p); err != nil {
		t.Fatalf("the mapping's properties: %v\n%s", err, m.Properties)
	}
	settings := taskmgmt.InvitationStreamMapping()
	if !slices.Contains(p.FunctionResponseTypes, "ReportBatchItemFailures") || !slices.Equal(p.FunctionResponseTypes, settings.FunctionResponseTypes) {
		t.Errorf("FunctionResponseTypes %v, want %v with ReportBatchItemFailures", p.FunctionResponseTypes, settings.FunctionResponseTypes)
	}
	if got := p.EventSourceArn["Fn::GetAtt"]; len(p.EventSourceArn) != 1 || !slices.Equal(got, []string{invTable, "StreamArn"}) {
		t.Errorf("EventSourceArn %v, want Fn::GetAtt [%s StreamArn]", p.EventSourceArn, invTable)
	}
	if p.FunctionName.Ref != mailerFunctionParam || p.DestinationConfig.OnFailure.Destination.Ref != mailerDestinationParam {
		t.Errorf("FunctionName %+v, on-failure destination %+v; want Refs to %s and %s",
			p.FunctionName, p.DestinationConfig.OnFailure.Destination, mailerFunctionParam, mailerDestinationParam)
	}
	if p.StartingPosition != settings.StartingPosition || p.BatchSize != settings.BatchSize ||
		p.BisectBatchOnFunctionError == nil || *p.BisectBatchOnFunctionError != settings.BisectBatchOnFunctionError ||
		p.MaximumRetryAttempts == nil || *p.MaximumRetryAttempts != settings.MaximumRetryAttempts ||
		p.MaximumRecordAgeInSeconds == nil || *p.MaximumRecordAgeInSeconds != settings.MaximumRecordAgeInSeconds ||
		len(p.FilterCriteria.Filters) != 1 || p.FilterCriteria.Filters[0].Pattern != settings.FilterPattern {
		t.Errorf("the mapping's settings %+v, want InvitationStreamMapping's %+v", p, settings)
	}
	for _, id := range []string{mailerFunctionParam, mailerDestinationParam} {
		if prm, ok := tpl.Parameters[id]; !ok || prm.Type != "String" || prm.Default != nil {
			t.Errorf("parameter %s: %+v (present %v); want a String with no default", id, prm, ok)
		}
	}
	if len(tpl.Parameters) != 2 {
		t.Errorf("parameters %v, want the function's and the destination's", tpl.Parameters)
	}
}

// TestIAM prints policies: a reader role's holds only its reads, on the
// ARNs the flags give; -deploy and -stream print those roles' statements;
// bad flags exit 2 with one line.
func TestIAM(t *testing.T) {
	type doc struct {
		Version   string
		Statement []struct {
			Effect   string
			Action   []string
			Resource []string
		}
	}
	policy := func(args ...string) doc {
		t.Helper()
		code, out, errOut := ddbkit(t, append([]string{"iam"}, args...)...)
		if code != 0 {
			t.Fatalf("iam %v: exit %d, stderr %q", args, code, errOut)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil || d.Version != "2012-10-17" {
			t.Fatalf("iam %v: %q is not a policy document: %v", args, out, err)
		}
		return d
	}
	pairs := func(d doc) []string {
		var out []string
		for _, s := range d.Statement {
			for _, a := range s.Action {
				for _, r := range s.Resource {
					out = append(out, s.Effect+" "+a+" "+r)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	arn := "arn:aws:dynamodb:ap-northeast-1:123456789012:table/LiveComment-Rooms-prod"
	got := pairs(policy("-interface", "RoomReader", "-env", "prod", "-region", "ap-northeast-1", "-account", "123456789012", "livecomment"))
	if want := []string{"Allow dynamodb:GetItem " + arn, "Allow dynamodb:Query " + arn + "/index/hostId-index"}; !slices.Equal(got, want) {
		t.Errorf("iam -interface RoomReader livecomment = %q, want %q", got, want)
	}
	got = pairs(policy("-interface", "CommentPoster", "-table-arn", "Comments=arn:aws:dynamodb:us-east-1:1:table/C", "livecomment"))
	if !slices.Contains(got, "Allow dynamodb:PutItem arn:aws:dynamodb:us-east-1:1:table/C") {
		t.Errorf("iam -interface CommentPoster with -table-arn = %q, want PutItem on the given ARN", got)
	}
	if _, _, errOut := ddbkit(t, "iam", "-interface", "RoomStore", "livecomment"); !strings.Contains(errOut, "note: a failed condition of CloseRoom, CloseRoomAs, CreateRoom returns") {
		t.Errorf("iam -interface RoomStore livecomment: stderr %q, want the note on CloseRoom and CreateRoom reading through failed conditions", errOut)
	}
	if _, _, errOut := ddbkit(t, "iam", "-interface", "RoomReader", "livecomment"); errOut != "" {
		t.Errorf("iam -interface RoomReader livecomment: stderr %q, want none: it writes nothing", errOut)
	}
	if got := pairs(policy("-stream", "taskmgmt")); len(got) != 4 || !strings.HasSuffix(got[0], "table/task-table-invitation-v3/stream/*") {
		t.Errorf("iam -stream taskmgmt = %q, want the four stream reads on the invitation table's streams", got)
	}
	if got := pairs(policy("-deploy", "-table", "T", "todo")); !slices.Contains(got, "Allow dynamodb:CreateTable arn:aws:dynamodb:*:*:table/T") {
		t.Errorf("iam -deploy todo = %q, want CreateTable on table T", got)
	}
	for _, args := range [][]string{
		{"iam", "-interface", "Nope", "todo"},
		{"iam", "-stream", "todo"},
		{"iam", "-deploy", "-stream", "taskmgmt"},
		{"iam", "-table-arn", "arn:aws:dynamodb:us-east-1:1:table/X", "livecomment"},
		{"iam", "-table-arn", "Nope=arn:aws:dynamodb:us-east-1:1:table/X", "todo"},
		{"iam", "-table-arn", "not-an-arn", "todo"},
	} {
		if code, _, errOut := ddbkit(t, args...); code != 2 || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, errOut)
		}
	}
}
