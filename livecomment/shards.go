package livecomment

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"sync"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
	"github.com/ddbkit/ddbkit/internal/memtable"
)

// Sharded comments (Options.CommentShards): see "Sharded comments" in the
// package documentation for the layout and its decisions.

// MaxCommentShards is the most shards Options.CommentShards allows. A page
// of a sharded listing queries every shard, and its cursor holds a
// position per shard: 64 shards carry a room past 30,000 comments/s while
// a page stays 65 Queries and its cursor a few KB.
const MaxCommentShards = 64

// CommentShard returns the shard of the comment commentID among shards:
// FNV-1a (32 bits) of the ID's bytes, modulo shards. Another writer of the
// sharded layout computes it the same way, and a comment's shard is
// recomputable from its ID alone. It is 0 for a count below 2.
func CommentShard(commentID string, shards int) int {
	if shards < 2 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(commentID))
	return int(h.Sum32() % uint32(shards))
}

// CommentPartition returns the roomId a comment is stored under: roomID
// itself in the seed's layout (shards 0), "<roomID>#<shard>" with
// CommentShard's shard when shards is 2 or more.
func CommentPartition(roomID, commentID string, shards int) string {
	if shards == 0 {
		return roomID
	}
	return shardPartition(roomID, CommentShard(commentID, shards))
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
// validator.ID), so the suffix is always the shard's.
func roomOfPartition(pk string) string {
	i := strings.LastIndexByte(pk, '#')
	if i < 0 || i == len(pk)-1 {
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
	if n := o.CommentShards; n != 0 && (n < 2 || n > MaxCommentShards) {
		return wrap(op, ddbkit.Invalid("CommentShards", "must be 0 (the seed's layout) or 2 to %d, got %d", MaxCommentShards, n))
	}
	return nil
}

// shardQueries are the listings a sharded ListComments merges: the room's
// unsharded partition first, then shards 0 to n-1, each a Query of
// roomId-createdAt-index as the unsharded listing's.
func (t tables) shardQueries(roomID string, n int) []ddb.KeyQuery {
	qs := make([]ddb.KeyQuery, n+1)
	for i := range qs {
		qs[i] = t.commentsQuery(shardPartition(roomID, i-1))
	}
	return qs
}

// mergedQuery is what a merged listing's cursor is bound to, through
// ddb.EncodeCursor's tag: the Comments table, the room, and the number of
// shards, in a listing no Query runs. Its key is the room and the shards'
// positions, packed (see packPositions). Its binding differs from every
// shard's, and from the unsharded listing's (their index, their key
// attributes), so no cursor of one is accepted by another: a count of
// shards merges other partitions, and the positions of one room are not
// another's.
func (t tables) mergedQuery(roomID string, n int) ddb.KeyQuery {
	tb := ddb.Table{Name: t.comments.Name, PartitionKey: attrRoomID, SortKey: attrShardPositions, CursorSecret: t.comments.CursorSecret}
	return ddb.KeyQuery{Table: tb, PartitionValue: roomID, Filter: fmt.Sprintf("%s merged: unsharded and %d shards", CommentsByTimeIndex, n)}
}

// attrShardPositions names the positions in a merged cursor's key; no item
// has it.
const attrShardPositions = "shardPositions"

// encodeMerged returns the cursor of a merged listing whose shards stand
// at pos (nil: not started).
func encodeMerged(q ddb.KeyQuery, pos []ddb.Item) (string, error) {
	packed := make([][]string, len(pos))
	for i, k := range pos {
		packed[i] = []string{}
		if k != nil {
			ca, _ := backend.Str(k, attrCreatedAt)
			id, _ := backend.Str(k, attrCommentID)
			packed[i] = []string{ca, id}
		}
	}
	js, err := json.Marshal(packed)
	if err != nil {
		return "", err
	}
	return ddb.EncodeCursor(q, ddb.Item{attrRoomID: ddb.S(q.PartitionValue), attrShardPositions: ddb.S(string(js))})
}

// decodeMerged returns the positions a merged cursor holds, one per query
// of qs (the cursor key of the last comment listed from it, nil for none).
// The tag (checked by ddb.DecodeCursor) makes any cursor not issued for
// this room and count of shards ErrInvalidCursor; the checks after it hold
// against a cursor forged without a CursorSecret: each position becomes a
// key of its own shard's partition, and nothing else.
func decodeMerged(q ddb.KeyQuery, qs []ddb.KeyQuery, cursor string) ([]ddb.Item, error) {
	pos := make([]ddb.Item, len(qs))
	k, err := ddb.DecodeCursor(q, cursor)
	if err != nil || k == nil {
		return pos, err
	}
	js, _ := backend.Str(k, attrShardPositions)
	var packed [][]string
	if json.Unmarshal([]byte(js), &packed) != nil || len(packed) != len(qs) {
		return nil, fmt.Errorf("%w: malformed shard positions; restart the listing without a cursor", ddbkit.ErrInvalidCursor)
	}
	for i, p := range packed {
		switch {
		case len(p) == 0:
		case len(p) == 2 && p[0] != "" && p[1] != "":
			pos[i] = ddb.Item{attrRoomID: ddb.S(qs[i].PartitionValue), attrCreatedAt: ddb.S(p[0]), attrCommentID: ddb.S(p[1])}
		default:
			return nil, fmt.Errorf("%w: malformed shard position; restart the listing without a cursor", ddbkit.ErrInvalidCursor)
		}
	}
	return pos, nil
}

// shardRead is one shard's Query of a merged page.
type shardRead struct {
	items []ddb.Item
	more  bool // the shard holds items past items
	err   error
}

// maxShardQueries bounds the Queries of one merged page in flight at once
// on DynamoDB.
const maxShardQueries = 16

// listMerged is ListComments over the sharded layout: one Query of each
// shard and of the unsharded partition, each from its own position and for
// the page's limit, run concurrently on DynamoDB, then a k-way merge of
// their items in the index's order, createdAt then the tie-breaker of
// roomId-createdAt-index (tieOrder), which is the unsharded listing's
// order over the same comments. The page takes the first limit items of
// the merge; each shard's position moves past the items it gave. Next is
// "" exactly when no shard has an item past its position, as each Query
// reads one item past the limit: a page has the unsharded listing's size
// guarantee.
func (c *core) listMerged(ctx context.Context, op, roomID string, limit int, cursor string) (ddbkit.Page[Comment], error) {
	n := c.o.CommentShards
	qs := c.t.shardQueries(roomID, n)
	qm := c.t.mergedQuery(roomID, n)
	pos, err := decodeMerged(qm, qs, cursor)
	if err != nil {
		return ddbkit.Page[Comment]{}, wrap(op, err)
	}
	reads := make([]shardRead, len(qs))
	read := func(i int) {
		cur := ""
		if pos[i] != nil {
			if cur, reads[i].err = ddb.EncodeCursor(qs[i], pos[i]); reads[i].err != nil {
				return
			}
		}
		var next string
		reads[i].items, next, reads[i].err = c.b.Query(ctx, qs[i], limit, cur, backend.Filter{})
		reads[i].more = next != ""
	}
	if _, mem := c.b.(*backend.Memory); mem {
		// No I/O to overlap: goroutines would cost more than the queries.
		for i := range qs {
			read(i)
		}
	} else {
		var wg sync.WaitGroup
		sem := make(chan struct{}, maxShardQueries)
		for i := range qs {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				read(i)
			}()
		}
		wg.Wait()
	}
	for _, r := range reads {
		if r.err != nil { // the first shard's, in shard order: the same on every run
			return ddbkit.Page[Comment]{}, wrap(op, r.err)
		}
	}
	items, more := c.t.merge(qs, reads, pos, limit)
	next := ""
	if more {
		if next, err = encodeMerged(qm, pos); err != nil {
			return ddbkit.Page[Comment]{}, wrap(op, err)
		}
	}
	return backend.DecodePage(c.b, c.t.comments, items, next, commentDecoder, func(err error) error { return wrap(op, err) })
}

// merge takes the first limit items of reads in the index's order, moves
// pos past the items taken from each shard, and reports whether any shard
// holds more.
func (t tables) merge(qs []ddb.KeyQuery, reads []shardRead, pos []ddb.Item, limit int) ([]ddb.Item, bool) {
	heads := make([]int, len(reads))
	// Ties are rare (one store never stamps a millisecond twice): their
	// digests are computed only when createdAt ties.
	ties := make([][]string, len(reads))
	tie := func(i int) string {
		if ties[i] == nil {
			ties[i] = make([]string, len(reads[i].items))
		}
		if ties[i][heads[i]] == "" {
			ties[i][heads[i]] = t.ties.Tie(reads[i].items[heads[i]])
		}
		return ties[i][heads[i]]
	}
	var out []ddb.Item
	for len(out) < limit {
		best := -1
		var bestCA string
		for i, r := range reads {
			if heads[i] == len(r.items) {
				continue
			}
			ca, _ := backend.Str(r.items[heads[i]], attrCreatedAt)
			if best < 0 || ca < bestCA || (ca == bestCA && tie(i) < tie(best)) {
				best, bestCA = i, ca
			}
		}
		if best < 0 {
			break
		}
		it := reads[best].items[heads[best]]
		out = append(out, it)
		pos[best] = qs[best].CursorKey(it)
		heads[best]++
	}
	for i, r := range reads {
		if heads[i] < len(r.items) || r.more {
			return out, true
		}
	}
	return out, false
}

// tieOrder is how roomId-createdAt-index orders comments of equal
// createdAt: DynamoDB Local, and so the memory store, by a digest of the
// comment ID (package memtable's tie rule for an index keyed by the base
// table's partition key, whose base sort key it lacks). Every shard's
// index orders its ties so, and the merge compares them so.
func tieOrder(t ddb.Table, ix ddb.Index) *memtable.Table[struct{}] {
	return memtable.New[struct{}](t, ix)
}
