package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ddbkit/ddbkit/iam"
	"github.com/ddbkit/ddbkit/kondate"
	"github.com/ddbkit/ddbkit/livecomment"
	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/todo"
	"github.com/ddbkit/ddbkit/wardrobe"
)

// arnFlags collects -table-arn ROLE=ARN (or a bare ARN for a one-table
// domain).
type arnFlags []string

func (a *arnFlags) String() string     { return strings.Join(*a, ",") }
func (a *arnFlags) Set(v string) error { *a = append(*a, v); return nil }

// iamPolicy prints the IAM policy of a domain's interface, of its deploy
// role (-deploy) or of taskmgmt's stream handler (-stream).
func iamPolicy(cmd string, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(cmd, "DOMAIN", stderr)
	var tf tableFlags
	tf.register(fs)
	iface := fs.String("interface", "Store", "the store interface the role uses, such as RoomReader (see the domain's Grants)")
	deploy := fs.Bool("deploy", false, "print the deploy role's statement instead: the schema operations of EnsureTable")
	stream := fs.Bool("stream", false, "taskmgmt: print the stream handler's statement instead (its event source mapping reads the invitation table's stream)")
	region := fs.String("region", "*", "region of the tables' ARNs")
	account := fs.String("account", "*", "account ID of the tables' ARNs")
	var arnArgs arnFlags
	fs.Var(&arnArgs, "table-arn", "a table's ARN, as ROLE=ARN (roles: the domain's default table names, livecomment's Rooms, Comments, Connections), or ARN alone for a one-table domain; repeatable")
	domain, err := parse(fs, args)
	if err != nil {
		return err
	}
	g, names, err := tf.grants(domain)
	if err != nil {
		return err
	}
	arns := iam.ARNs{}
	for role, name := range names {
		arns[role] = fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", *region, *account, name)
	}
	for _, a := range arnArgs {
		role, arn, ok := strings.Cut(a, "=")
		if !ok {
			if len(names) != 1 {
				return usageErr("-table-arn %q: %s has %d tables, give ROLE=ARN (roles: %s)", a, domain, len(names), strings.Join(slices.Sorted(maps.Keys(names)), ", "))
			}
			role, arn = slices.Collect(maps.Keys(names))[0], a
		}
		if _, known := names[role]; !known {
			return usageErr("-table-arn %q: %s has no table %q (roles: %s)", a, domain, role, strings.Join(slices.Sorted(maps.Keys(names)), ", "))
		}
		if !strings.HasPrefix(arn, "arn:") || !strings.Contains(arn, ":table/") {
			return usageErr("-table-arn %q: want a table ARN, arn:aws:dynamodb:REGION:ACCOUNT:table/NAME", a)
		}
		arns[role] = arn
	}
	var doc iam.Document
	switch {
	case *deploy && *stream:
		return usageErr("-deploy and -stream are two roles: print one at a time")
	case *deploy:
		doc, err = g.DeployPolicy(arns)
	case *stream:
		if domain != "taskmgmt" {
			return usageErr("-stream is for taskmgmt's stream handler only")
		}
		doc = iam.StreamPolicy(arns[taskmgmt.DefaultInvitationTableName])
	default:
		if _, ok := g.Interfaces[*iface]; !ok {
			return usageErr("-interface %q: %s has %s", *iface, domain, strings.Join(slices.Sorted(maps.Keys(g.Interfaces)), ", "))
		}
		doc, err = g.Policy(*iface, arns)
	}
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if _, err = fmt.Fprintf(stdout, "%s\n", b); err != nil || *deploy || *stream {
		return err
	}
	// The grant a policy cannot show: what its conditional writes read.
	if ms, _ := g.ReadsThroughConditions(*iface); len(ms) > 0 {
		_, err = fmt.Fprintf(stderr, "ddbkit iam: note: a failed condition of %s returns the item as it was to this role; set Options.WithholdOldItems where it must not read (package iam)\n", strings.Join(ms, ", "))
	}
	return err
}

// grants returns the domain's grants and the names of its tables by role
// (iam.Grant.Table), under the names f gives.
func (f *tableFlags) grants(domain string) (iam.Grants, map[string]string, error) {
	defs, err := f.definitions(domain) // checks the flags against the domain
	if err != nil {
		return iam.Grants{}, nil, err
	}
	switch domain {
	case "todo":
		return todo.Grants(), map[string]string{todo.DefaultTableName: defs[0].Name()}, nil
	case "taskmgmt":
		return taskmgmt.Grants(), map[string]string{taskmgmt.DefaultTableName: defs[0].Name(), taskmgmt.DefaultInvitationTableName: defs[1].Name()}, nil
	case "livecomment":
		n := livecomment.Tables(f.env)
		return livecomment.Grants(), map[string]string{"Rooms": n.Rooms, "Comments": n.Comments, "Connections": n.Connections}, nil
	case "kondate":
		return kondate.Grants(), map[string]string{kondate.DefaultTableName: defs[0].Name()}, nil
	default: // wardrobe
		return wardrobe.Grants(), map[string]string{wardrobe.DefaultTableName: defs[0].Name()}, nil
	}
}
