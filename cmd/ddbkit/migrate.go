package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/kondate"
)

// This file is the one place that scans a domain's table: a migration is
// an explicit one-off job an operator runs, not a library path, so the
// domain packages keep to keyed reads.

const migrateUsage = `usage: ddbkit migrate [flags] MIGRATION

Runs a one-off data migration over a live table, resumably and at a
bounded rate. Migrations:

  kondate-saves   add the GSI1 keys (GSI1PK ENTITY#<kind>#<id>, GSI1SK
                  SAVED#<userId>) to kondate's saved items that lack them,
                  as the seed's app writes them, so that
                  RecalculatePopularity counts them. It Scans the table
                  and updates each such item, conditioned on the item
                  still being there without GSI1 keys. Saves written
                  after the scan passed their key are not migrated: set
                  kondate.Options.SavesIndexed only once every writer of
                  saves writes the keys, then run the migration again.

The checkpoint file (-checkpoint) records the last key of every Scan page
done, so an interrupted run (an error, an interrupt) resumes where it
stopped when run again with the same file; a finished one says so and
does nothing (-restart starts over). Writes are paced at -rate items per
second, and Scan reads at -scan-rate items per second. It needs
dynamodb:Scan and dynamodb:UpdateItem on the table, which no store's
policy grants (ddbkit iam): run it with an operator's role.

flags:
`

// migrateClient is what a migration calls: *dynamodb.Client has it.
type migrateClient interface {
	Scan(ctx context.Context, in *dynamodb.ScanInput, optFns ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
}

// checkpoint is a migration's progress, as the checkpoint file holds it.
type checkpoint struct {
	Migration string            `json:"migration"`
	Table     string            `json:"table"`
	After     map[string]string `json:"after,omitempty"` // the last key of the last page done
	Done      bool              `json:"done"`
	Scanned   int64             `json:"scanned"` // items the Scan evaluated
	Indexed   int64             `json:"indexed"` // saves given their GSI1 keys
	Skipped   int64             `json:"skipped"` // saves unsaved or indexed meanwhile, or not of the layout
}

// migrateConfig is one run of a migration.
type migrateConfig struct {
	table      string
	checkpoint string
	rate       float64 // writes per second
	scanRate   float64 // items read per second
	page       int32
	restart    bool
	dryRun     bool
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("migrate", "MIGRATION", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, migrateUsage)
		fs.PrintDefaults()
	}
	var cfg migrateConfig
	fs.StringVar(&cfg.table, "table", kondate.DefaultTableName, "the table")
	fs.StringVar(&cfg.checkpoint, "checkpoint", "", "the checkpoint file, created if missing (required)")
	fs.Float64Var(&cfg.rate, "rate", 25, "most items written per second")
	fs.Float64Var(&cfg.scanRate, "scan-rate", 500, "most items read per second by the Scan")
	page := fs.Int("page", 100, "items per Scan page, 1 to 1000")
	fs.BoolVar(&cfg.restart, "restart", false, "start over, whatever the checkpoint says")
	fs.BoolVar(&cfg.dryRun, "dry-run", false, "count what would be migrated; write nothing, not even the checkpoint")
	conn := connFlags(fs)
	name, err := parse(fs, args)
	if err != nil {
		return err
	}
	if name != "kondate-saves" {
		return usageErr("unknown migration %q (want kondate-saves)", name)
	}
	if cfg.checkpoint == "" && !cfg.dryRun {
		return usageErr("migrate: -checkpoint FILE is required, so that a run can resume")
	}
	if cfg.rate <= 0 || cfg.scanRate <= 0 || *page < 1 || *page > 1000 {
		return usageErr("migrate: -rate and -scan-rate must be positive, -page 1 to 1000")
	}
	cfg.page = int32(*page)
	c, err := conn(ctx)
	if err != nil {
		return err
	}
	return migrateSaves(ctx, c, cfg, stdout)
}

// migrateSaves is the kondate-saves migration.
func migrateSaves(ctx context.Context, c migrateClient, cfg migrateConfig, stdout io.Writer) error {
	const name = "kondate-saves"
	cp := checkpoint{Migration: name, Table: cfg.table}
	if !cfg.restart && cfg.checkpoint != "" {
		old, err := readCheckpoint(cfg.checkpoint)
		if err != nil {
			return err
		}
		if old != nil {
			if old.Migration != name || old.Table != cfg.table {
				return usageErr("migrate: checkpoint %s is of %s on table %s, not %s on %s", cfg.checkpoint, old.Migration, old.Table, name, cfg.table)
			}
			if old.Done {
				fmt.Fprintf(stdout, "%s: %s: done already (%s); -restart runs it again\n", name, cfg.table, old.counts())
				return nil
			}
			cp = *old
		}
	}
	writes, reads := newPacer(cfg.rate), newPacer(cfg.scanRate)
	in := &dynamodb.ScanInput{
		TableName:            aws.String(cfg.table),
		Limit:                aws.Int32(cfg.page),
		FilterExpression:     aws.String("begins_with(#pk, :user) AND begins_with(#sk, :saved) AND attribute_not_exists(#gpk)"),
		ProjectionExpression: aws.String("#pk, #sk"),
		ExpressionAttributeNames: map[string]string{
			"#pk": kondate.AttrPK, "#sk": kondate.AttrSK, "#gpk": kondate.AttrGSI1PK,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":user": &types.AttributeValueMemberS{Value: "USER#"}, ":saved": &types.AttributeValueMemberS{Value: "SAVED#"},
		},
	}
	for {
		in.ExclusiveStartKey = nil
		if cp.After != nil {
			in.ExclusiveStartKey = map[string]types.AttributeValue{}
			for k, v := range cp.After {
				in.ExclusiveStartKey[k] = &types.AttributeValueMemberS{Value: v}
			}
		}
		if err := reads.wait(ctx, int(cfg.page)); err != nil {
			return err
		}
		out, err := c.Scan(ctx, in)
		if err != nil {
			return fmt.Errorf("%s: scan %s: %w (%s; run again to resume)", name, cfg.table, err, cp.counts())
		}
		cp.Scanned += int64(out.ScannedCount)
		for _, item := range out.Items {
			pk, _ := item[kondate.AttrPK].(*types.AttributeValueMemberS)
			sk, _ := item[kondate.AttrSK].(*types.AttributeValueMemberS)
			var ipk, isk string
			ok := pk != nil && sk != nil
			if ok {
				ipk, isk, ok = kondate.SavedIndexKeys(pk.Value, sk.Value)
			}
			if !ok {
				cp.Skipped++
				continue
			}
			if cfg.dryRun {
				cp.Indexed++
				continue
			}
			if err := writes.wait(ctx, 1); err != nil {
				return err
			}
			indexed, err := indexSave(ctx, c, cfg.table, pk.Value, sk.Value, ipk, isk)
			if err != nil {
				return fmt.Errorf("%s: update %s / %s: %w (%s; run again to resume)", name, pk.Value, sk.Value, err, cp.counts())
			}
			if indexed {
				cp.Indexed++
			} else {
				cp.Skipped++
			}
		}
		cp.After = nil
		if len(out.LastEvaluatedKey) > 0 {
			cp.After = map[string]string{}
			for k, v := range out.LastEvaluatedKey {
				s, ok := v.(*types.AttributeValueMemberS)
				if !ok {
					return fmt.Errorf("%s: the Scan's last key has a non-String %s", name, k)
				}
				cp.After[k] = s.Value
			}
		}
		cp.Done = cp.After == nil
		if !cfg.dryRun {
			if err := writeCheckpoint(cfg.checkpoint, cp); err != nil {
				return err
			}
		}
		if cp.Done {
			verb := "done"
			if cfg.dryRun {
				verb = "dry run done, nothing written"
			}
			fmt.Fprintf(stdout, "%s: %s: %s (%s)\n", name, cfg.table, verb, cp.counts())
			return nil
		}
		fmt.Fprintf(stdout, "%s: %s: %s\n", name, cfg.table, cp.counts())
	}
}

func (cp checkpoint) counts() string {
	return fmt.Sprintf("scanned %d, indexed %d, skipped %d", cp.Scanned, cp.Indexed, cp.Skipped)
}

// indexSave gives the saved item at pk, sk its GSI1 keys, if it is still
// there without them; false when it is not (unsaved, or indexed, meanwhile).
func indexSave(ctx context.Context, c migrateClient, table, pk, sk, ipk, isk string) (bool, error) {
	_, err := c.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(table),
		Key: map[string]types.AttributeValue{
			kondate.AttrPK: &types.AttributeValueMemberS{Value: pk}, kondate.AttrSK: &types.AttributeValueMemberS{Value: sk},
		},
		UpdateExpression:         aws.String("SET #gpk = :gpk, #gsk = :gsk"),
		ConditionExpression:      aws.String("attribute_exists(#pk) AND attribute_not_exists(#gpk) AND attribute_not_exists(#gsk)"),
		ExpressionAttributeNames: map[string]string{"#pk": kondate.AttrPK, "#gpk": kondate.AttrGSI1PK, "#gsk": kondate.AttrGSI1SK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":gpk": &types.AttributeValueMemberS{Value: ipk}, ":gsk": &types.AttributeValueMemberS{Value: isk},
		},
	})
	var cf *types.ConditionalCheckFailedException
	if errors.As(err, &cf) {
		return false, nil
	}
	return err == nil, err
}

func readCheckpoint(path string) (*checkpoint, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("migrate: checkpoint: %w", err)
	}
	var cp checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("migrate: checkpoint %s: %w", path, err)
	}
	return &cp, nil
}

// writeCheckpoint replaces the file at once (a rename), so that an
// interrupted write leaves the previous checkpoint.
func writeCheckpoint(path string, cp checkpoint) error {
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".checkpoint-*")
	if err != nil {
		return fmt.Errorf("migrate: checkpoint: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("migrate: checkpoint: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("migrate: checkpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("migrate: checkpoint: %w", err)
	}
	return nil
}

// pacer spaces units of work at a rate per second.
type pacer struct {
	every time.Duration
	next  time.Time
}

func newPacer(perSecond float64) *pacer {
	return &pacer{every: time.Duration(float64(time.Second) / perSecond)}
}

// wait blocks until n more units are allowed, or ctx ends.
func (p *pacer) wait(ctx context.Context, n int) error {
	now := time.Now()
	if p.next.Before(now) {
		p.next = now
	}
	at := p.next
	p.next = p.next.Add(time.Duration(n) * p.every)
	if d := time.Until(at); d > 0 {
		return ddb.Sleep(ctx, d)
	}
	return nil
}
