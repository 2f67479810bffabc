package kondate

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// Sharded catalog (Options.CatalogShards): see "Sharded catalog" in the
// package documentation for the layout and its decisions.

// MaxCatalogShards is the most shards Options.CatalogShards allows. A page
// of the newest or popular list queries every shard, and its cursor holds
// a position per shard: 64 shards carry one kind's saves past 8,000/s
// while a page stays 64 Queries and its cursor a few KB.
const MaxCatalogShards = 64

// CatalogShard returns the shard of the catalog entry id among shards:
// FNV-1a (32 bits) of the ID's bytes, modulo shards; 0 for a count below
// 2. Another writer of the sharded layout computes it the same way: an
// entry's partition follows from its kind and ID alone.
func CatalogShard(id string, shards int) int {
	return keys.Shard(id, shards)
}

// CatalogPartition returns the partition key of the catalog item of entry
// id, which is also the GSI2PK of both its items: CATALOG#<kind> in the
// seed's layout (shards below 2) and for shard 0, CATALOG#<kind>#<shard>
// for the other shards (CatalogShard).
func CatalogPartition(kind CatalogKind, id string, shards int) string {
	return catalogShardPK(kind, CatalogShard(id, shards))
}

// catalogShardPK is shard s's partition of kind: shard 0 is the seed's
// partition, CATALOG#<kind>, which holds every entry published before the
// catalog was sharded; shard s > 0 is CATALOG#<kind>#<s>.
func catalogShardPK(kind CatalogKind, s int) string {
	if s == 0 {
		return catalogPrefix + string(kind)
	}
	return catalogPrefix + string(kind) + "#" + strconv.Itoa(s)
}

// kindOfCatalogPK returns the kind of a catalog partition key's suffix
// (after CATALOG#): the suffix itself, without "#<shard>". Kinds hold no
// '#'.
func kindOfCatalogPK(suffix string) string {
	kind, _, _ := strings.Cut(suffix, "#")
	return kind
}

// catalogShards returns the shard count of the options: 0 for the seed's
// layout (0 or 1), and for an invalid count, which every catalog
// operation refuses before it reads the count (shards).
func (o Options) catalogShards() int {
	if n := o.CatalogShards; n >= 2 && n <= MaxCatalogShards {
		return n
	}
	return 0
}

// shards is the check, among an operation's rules, of
// Options.CatalogShards: every catalog operation refuses a count no
// layout has before any call.
func (c *core) shards(v *validator) {
	if n := c.o.CatalogShards; n < 0 || n > MaxCatalogShards {
		v.Fail("CatalogShards", "must be 0 or 1 (the seed's one catalog partition) or 2 to %d, got %d", MaxCatalogShards, n)
	}
}

// shardedIndex is the error of a sharded catalog without GSI1, nil
// otherwise: entries published before the switch (or under another count)
// are not where their ID's shard says, and only GSI1 finds them, so
// Publish, Unpublish and the merged lists refuse to run without it, as an
// operation that needs a disabled index does (ErrSchemaMismatch).
func (c *core) shardedIndex() error {
	if c.o.catalogShards() >= 2 {
		return c.o.index(indexGSI1)
	}
	return nil
}

// catalogPK is the partition of a new catalog item of entry id.
func (c *core) catalogPK(kind CatalogKind, id string) string {
	n := c.o.catalogShards()
	return CatalogPartition(kind, id, n)
}

// catalogKeyAt is the key of entry id's catalog item published at, in the
// layout of the options; an entry published before the catalog was
// sharded, or under another count, is at another key, found by ID
// through GSI1.
func (c *core) catalogKeyAt(kind CatalogKind, at time.Time, id string) itemKey {
	k := catalogKey(kind, at, id)
	k.PK = c.catalogPK(kind, id)
	return k
}

// catalogParts returns the partitions of kind's catalog the options read:
// shards 0 (the seed's partition) to N-1, or the seed's partition alone.
func (c *core) catalogParts(kind CatalogKind) []string {
	n := c.o.catalogShards()
	parts := make([]string, max(n, 1))
	for s := range parts {
		parts[s] = catalogShardPK(kind, s)
	}
	return parts
}

// listMerged reads a page of the newest or popular list over every shard
// of a sharded catalog: one Query per shard (rt's query with the shard's
// partition), merged in rt's order by backend.MergePage under one cursor
// bound to the list, the kind and the shard count.
func (c *core) listMerged(ctx context.Context, op, list string, kind CatalogKind, rt catalogRoute, limit int, opts CatalogQuery, f backend.Filter) (ddbkit.Page[CatalogEntry], error) {
	if err := c.shardedIndex(); err != nil {
		return ddbkit.Page[CatalogEntry]{}, wrap(op, err)
	}
	parts := c.catalogParts(kind)
	m := backend.Merged{Listing: fmt.Sprintf("kondate catalog %s %s, %d shards", list, kind, len(parts))}
	for _, pv := range parts {
		m.Queries = append(m.Queries, ddb.KeyQuery{Table: c.t, Index: rt.ix, PartitionValue: pv, Sort: ddb.SortBeginsWith(rt.prefix),
			Descending: true, Budget: c.o.FilterBudget})
	}
	items, next, err := backend.MergePage(ctx, c.b, m, limit, opts.Cursor, f)
	if err != nil {
		return ddbkit.Page[CatalogEntry]{}, wrap(op, err)
	}
	return backend.DecodePage(c.b, c.t, items, next, catalogDecoder, func(err error) error { return wrap(op, err) })
}
