package livecomment

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/keys"
)

// Sharded comments (Options.CommentShards): see "Sharded comments" in the
// package documentation for the layout and its decisions.

// MaxCommentShards is the most shards Options.CommentShards allows. A page
// of a sharded listing queries every shard, and its cursor holds a
// position per shard: 64 shards' partitions take a room's 29,000
// comments/s (with Options.RoomCheckCache) while a page stays 65 Queries
// and its cursor under a kilobyte.
const MaxCommentShards = 64

// CommentShard returns the shard of the comment commentID among shards:
// FNV-1a (32 bits) of the ID's bytes, modulo shards. Another writer of the
// sharded layout computes it the same way, and a comment's shard is
// recomputable from its ID alone. It is 0 for a count below 2, as in the
// seed's layout (counts 0 and 1), which has no shards.
func CommentShard(commentID string, shards int) int {
	return keys.Shard(commentID, shards)
}

// CommentPartition returns the roomId a comment is stored under: roomID
// itself in the seed's layout (shards 0 or 1, or any count below 2),
// "<roomID>#<shard>" with CommentShard's shard when shards is 2 or more.
func CommentPartition(roomID, commentID string, shards int) string {
	if shards < 2 {
		return roomID
	}
	return shardPartition(roomID, CommentShard(commentID, shards))
}

// CommentPartitions returns every roomId that may hold a comment of roomID
// when shards is the layout's count: roomID itself, which the seed's
// layout and a room's comments from before sharding use, then, for 2 or
// more shards, "<roomID>#0" to "<roomID>#<shards-1>". For the seed's
// layout (0 or 1, or any count below 2) that is roomID alone. An
// operator's deletion or migration of a room reads these partitions, as
// ListComments does.
func CommentPartitions(roomID string, shards int) []string {
	if shards < 2 {
		return []string{roomID}
	}
	ps := make([]string, 0, shards+1)
	for s := -1; s < shards; s++ {
		ps = append(ps, shardPartition(roomID, s))
	}
	return ps
}

// shardPartition is the partition value of shard s of roomID; s < 0 is the
// room's unsharded partition.
func shardPartition(roomID string, s int) string {
	if s < 0 {
		return roomID
	}
	return roomID + "#" + strconv.Itoa(s)
}

// roomOfPartition returns the room ID of a stored roomId: the value without
// its "#<shard>" suffix, if it has one. Room IDs hold no '#' (see
// validator.ID), so the suffix is always the shard's, and a value with
// more than one '#' (another writer's) is no shard's partition: it is
// read as it is, so that writing it back keeps it.
func roomOfPartition(pk string) string {
	i := strings.LastIndexByte(pk, '#')
	if i < 0 || i == len(pk)-1 || strings.IndexByte(pk, '#') != i {
		return pk
	}
	for _, r := range pk[i+1:] {
		if r < '0' || r > '9' {
			return pk
		}
	}
	return pk[:i]
}

// checkShards refuses an Options.CommentShards no layout has.
func (o Options) checkShards(op string) error {
	if n := o.CommentShards; n < 0 || n > MaxCommentShards {
		return wrap(op, ddbkit.Invalid("CommentShards", "must be 0 or 1 (the seed's layout) or 2 to %d, got %d", MaxCommentShards, n))
	}
	return nil
}

// commentShards is the count of shards of the comment layout: 0 for the
// seed's, which CommentShards 1 is too (one shard is no shard), else
// CommentShards as set, so that a count no layout has still meets
// checkShards on the sharded path.
func (o Options) commentShards() int {
	if o.CommentShards == 1 {
		return 0
	}
	return o.CommentShards
}

// shardQueries are the listings a sharded ListComments merges: the room's
// unsharded partition first, then shards 0 to n-1, each a Query of
// roomId-createdAt-index as the unsharded listing's. Newest first, each
// Query is descending and the partitions come in the reverse order (shard
// n-1 first, the unsharded partition last): the merge breaks a tie the
// index cannot (equal createdAt and tie-breaker in two partitions) by the
// partitions' order, so reversing it makes the newest-first listing
// exactly the oldest-first one reversed.
func (t tables) shardQueries(roomID string, n int, newest bool) []ddb.KeyQuery {
	var qs []ddb.KeyQuery
	for _, p := range CommentPartitions(roomID, n) {
		q := t.commentsQuery(p)
		if newest {
			q = t.commentsNewestQuery(p)
		}
		qs = append(qs, q)
	}
	if newest {
		slices.Reverse(qs)
	}
	return qs
}

// listMerged is ListComments (ListCommentsNewest, if newest) over the
// sharded layout: one Query of each shard and of the unsharded partition,
// each from its own position and for the page's limit, merged by
// backend.MergePage in the index's order, createdAt then the tie order of
// roomId-createdAt-index (both reversed, newest first), which is the
// unsharded listing's order over the same comments. Next is "" exactly
// when no shard has an item past its position, as each Query reads one
// item past the limit: a page has the unsharded listing's size guarantee.
// The cursor is bound to the room's partitions, to N and to the direction
// through the listing's name, so no unsharded cursor, nor another N's or
// the other direction's, is accepted.
func (c *core) listMerged(ctx context.Context, op, roomID string, limit int, cursor string, newest bool) (ddbkit.Page[Comment], error) {
	n := c.o.commentShards()
	// The oldest-first name is the one cursors issued before the newest
	// listing existed carry, so they stay valid. The queries' direction is
	// bound too; the name says it again.
	listing := fmt.Sprintf("livecomment comments, unsharded and %d shards", n)
	if newest {
		listing += ", newest first"
	}
	m := backend.Merged{Queries: c.t.shardQueries(roomID, n, newest), Listing: listing}
	items, next, err := backend.MergePage(ctx, c.b, m, limit, cursor, backend.Filter{})
	if err != nil {
		return ddbkit.Page[Comment]{}, wrap(op, err)
	}
	return backend.DecodePage(c.b, c.t.comments, items, next, commentDecoder, func(err error) error { return wrap(op, err) })
}
