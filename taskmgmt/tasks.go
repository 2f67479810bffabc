package taskmgmt

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/internal/backend"
	"github.com/ddbkit/ddbkit/internal/ddb"
)

// The operations on tags, tasks and counters (access patterns 5 to 16),
// on both stores (see store.go).

// ---- tags

// CreateTag implements TagStore.CreateTag, which documents its errors.
func (c *core) CreateTag(ctx context.Context, teamID string, in NewTag) (_ Tag, err error) {
	ctx, sp := c.start(ctx, "CreateTag")
	defer sp.End(&err)
	replay := func(ctx context.Context, ref backend.Key) (Tag, error) {
		id, _ := idFrom(ref.SK, segTag)
		item, err := c.replayItem(ctx, c.t, ref, errNotFound("tag", id))
		if err != nil {
			return Tag{}, err
		}
		return decodeTag(c.t, item)
	}
	return keyed(ctx, "create tag", keying(c, c.scope("create tag", teamPK(teamID)), replay, in), func(ctx context.Context) (Tag, error) {
		return c.createTag(ctx, teamID, in)
	})
}

// createTag is CreateTag's work, which Keyed runs.
func (c *core) createTag(ctx context.Context, teamID string, in NewTag) (Tag, error) {
	const op = "create tag"
	if err := validateNewTag(op, teamID, in); err != nil {
		return Tag{}, err
	}
	tag := Tag{ID: c.o.NewID(), TeamID: teamID, Name: in.Name, Color: in.Color}
	item := tagItem(tag)
	if err := checkSize(op, item, "Name"); err != nil {
		return Tag{}, err
	}
	err := c.once(ctx, c.scope(op, teamPK(teamID)), []backend.Write{
		backend.PutNew(labelTag, c.t, item), // first: an idempotency record refers to it
		backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
	})
	if _, ok := backend.Failed(err, labelTeam); ok {
		return Tag{}, wrap(op, errTeamNotFound(teamID))
	}
	if _, ok := backend.Failed(err, ""); ok {
		return Tag{}, wrap(op, errRepeatedID("tag", tag.ID))
	}
	if err != nil {
		return Tag{}, wrap(op, err)
	}
	return tag, nil
}

// ListTags implements TagStore.ListTags, which documents its errors.
func (c *core) ListTags(ctx context.Context, teamID string, o ddbkit.PageOptions) (_ ddbkit.Page[Tag], err error) {
	ctx, sp := c.start(ctx, "ListTags")
	defer sp.End(&err)
	const op = "list tags"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	p, err := listPage(ctx, c, tagsQuery(c.t, teamID), o, backend.Filter{}, tagDecoder)
	return p, wrap(op, err)
}

// DeleteTag implements TagStore.DeleteTag, which documents its errors.
func (c *core) DeleteTag(ctx context.Context, teamID, actorID, tagID string) (err error) {
	ctx, sp := c.start(ctx, "DeleteTag")
	defer sp.End(&err)
	// A repeat deletes again, without the key: a tag already gone is no
	// error, and the walk finishes its references.
	_, err = keyed(ctx, "delete tag", keying[struct{}](c, c.scope("delete tag", teamPK(teamID)), nil, actorID, tagID), func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.deleteTag(ctx, teamID, actorID, tagID)
	})
	return err
}

// deleteTag is DeleteTag's work, which Keyed runs.
func (c *core) deleteTag(ctx context.Context, teamID, actorID, tagID string) error {
	const op = "delete tag"
	if err := validateIDs(op, "TeamID", teamID, "ActorID", actorID, "TagID", tagID); err != nil {
		return err
	}
	// The tag goes first, in one transaction with the actor's admin check:
	// from then on no task write can add it (they check their new tags
	// exist), so the walk below leaves none behind. A tag already gone is
	// no error: the walk finishes its references, after the same check,
	// so a repeat by a member does nothing.
	err := c.b.Tx(ctx, c.stepRun(op, teamPK(teamID)), []backend.Write{
		c.checkAdmin(teamID, actorID),
		backend.Remove(labelTag, c.t, tagKey(teamID, tagID).key()),
	})
	if err, ok := refused(err, teamID, actorID, op); ok {
		return wrap(op, err)
	}
	if err != nil {
		return wrap(op, err)
	}
	// DELETE of the reference from each task's set, on condition that the
	// task still exists (a DELETE would otherwise create it).
	var u backend.Change
	u.DeleteMembers(attrTagRef, &types.AttributeValueMemberSS{Value: []string{tagRef(tagID)}})
	// One read-modify-write: a batch whose task vanished walks again, and
	// finds the references still left. Each page of the walk is bounded
	// by the filter budget.
	err = c.rmw(ctx, c.scope(op, teamPK(teamID)), func(*backend.Run) error {
		var tagged []backend.Key
		err := c.walk(ctx, tasksQuery(c.t, teamID), tagFilter(BoardQuery{TagIDs: []string{tagID}}), func(it ddb.Item) bool {
			tagged = append(tagged, backend.KeyOf(c.t, it))
			return false
		})
		if err != nil {
			return err
		}
		for batch := range slices.Chunk(tagged, maxTx(ctx)) {
			ws := make([]backend.Write, len(batch))
			for i, k := range batch {
				ws[i] = backend.Update("task "+strconv.Itoa(i), c.t, k, u, backend.Exists(nil))
			}
			err := c.b.Tx(ctx, c.stepRun(op, teamPK(teamID)), ws)
			if _, ok := backend.Failed(err, ""); ok {
				return raced("the tasks of team " + strconv.Quote(teamID))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return wrap(op, err)
}

// ---- tasks

// maxCounterWrites is how many writes counterWrites appends at most: the
// running total and the day's counter.
const maxCounterWrites = 2

// counterWrites appends the counter updates of d, at most
// maxCounterWrites, with ADD: they create a missing counter and its three
// counts. With sharded counters they update the shard of taskID.
func (c *core) counterWrites(ws []backend.Write, teamID, taskID string, d delta, today Date) []backend.Write {
	shard := counterShard(taskID, c.shards)
	add := func(label string, day Date, by Counts, exp int64) {
		if by == (Counts{}) {
			return
		}
		var u backend.Change
		u.Grow(2 + len(Statuses))
		u.Set(attrType, s(typeCounter))
		for _, st := range Statuses {
			u.Add(string(st), int64(by.Get(st)))
		}
		if exp != 0 {
			u.Set(AttrExpiresAt, n(exp))
		} else {
			// COUNTER#ALL never expires: an expiresAt another writer set
			// goes with the first write, so that TTL cannot delete the
			// running total and the next ADD start it again from zero.
			u.Remove(AttrExpiresAt)
		}
		ws = append(ws, backend.Update(label, c.t, counterShardKey(teamID, day, shard).key(), u, backend.Cond{}))
	}
	add(labelAll, "", d.all, 0)
	if d.day != (Counts{}) {
		add(labelDay, today, d.day, c.o.expiresAt(today))
	}
	return ws
}

// tagChecks appends the checks that each of the tags at idx exists,
// labelled by its input field.
func (c *core) tagChecks(ws []backend.Write, teamID string, ids []string, idx []int) []backend.Write {
	for _, i := range idx {
		ws = append(ws, backend.Check(tagField(i), c.t, tagKey(teamID, ids[i]).key(), nil))
	}
	return ws
}

func tagField(i int) string { return "TagIDs[" + strconv.Itoa(i) + "]" }

// tagError maps a failed tag check to the input field that named the tag.
func tagError(err error, ids []string, idx []int) error {
	for _, i := range idx {
		if _, ok := backend.Failed(err, tagField(i)); ok {
			return errUnknownTag(tagField(i), ids[i])
		}
	}
	return nil
}

// CreateTask implements TaskStore.CreateTask, which documents its errors.
func (c *core) CreateTask(ctx context.Context, teamID string, in NewTask) (_ Task, err error) {
	ctx, sp := c.start(ctx, "CreateTask")
	defer sp.End(&err)
	return keyed(ctx, "create task", keying(c, c.scope("create task", teamPK(teamID)), c.replayTask, in), func(ctx context.Context) (Task, error) {
		return c.createTask(ctx, teamID, in)
	})
}

// replayTask is the task at ref, as it is now, for a repeat of a call
// that wrote it.
func (c *core) replayTask(ctx context.Context, ref backend.Key) (Task, error) {
	teamID, _ := idFrom(ref.PK, segTeam)
	taskID, _ := idFrom(ref.SK, segTask)
	item, err := c.replayItem(ctx, c.t, ref, errTaskNotFound(teamID, taskID))
	if err != nil {
		return Task{}, err
	}
	return backend.Decode(c.b, c.t, item, taskDecoder)
}

// createTask is CreateTask's work, which Keyed runs.
func (c *core) createTask(ctx context.Context, teamID string, in NewTask) (Task, error) {
	const op = "create task"
	if err := validateNewTask(op, teamID, in); err != nil {
		return Task{}, err
	}
	if c.shardsErr != nil {
		return Task{}, wrap(op, c.shardsErr)
	}
	task := c.o.newTask(teamID, in)
	item := taskItem(task)
	if err := checkSize(op, item, "Description"); err != nil {
		return Task{}, err
	}
	today := c.read().today
	all := make([]int, len(in.TagIDs))
	for i := range all {
		all[i] = i
	}
	ws := make([]backend.Write, 0, 2+len(all)+maxCounterWrites)
	// The task first: an idempotency record refers to it.
	ws = append(ws, backend.PutNew(labelTask, c.t, item), backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil))
	ws = c.tagChecks(ws, teamID, in.TagIDs, all)
	ws = c.counterWrites(ws, teamID, task.ID, createDelta(task.Status), today)
	err := c.once(ctx, c.scope(op, teamPK(teamID)), ws)
	if _, ok := backend.Failed(err, labelTeam); ok {
		return Task{}, wrap(op, errTeamNotFound(teamID))
	}
	if err := tagError(err, in.TagIDs, all); err != nil {
		return Task{}, wrap(op, err)
	}
	if _, ok := backend.Failed(err, labelTask); ok {
		return Task{}, wrap(op, errRepeatedID("task", task.ID))
	}
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return task, nil
}

// GetTask implements TaskStore.GetTask, which documents its errors.
func (c *core) GetTask(ctx context.Context, teamID, taskID string) (_ Task, err error) {
	ctx, sp := c.start(ctx, "GetTask")
	defer sp.End(&err)
	const op = "get task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return Task{}, err
	}
	t, _, err := c.task(ctx, teamID, taskID)
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return t, nil
}

func (c *core) task(ctx context.Context, teamID, taskID string) (Task, ddb.Item, error) {
	item, err := c.get(ctx, taskKey(teamID, taskID))
	if err != nil {
		return Task{}, nil, err
	}
	if item == nil {
		return Task{}, nil, errTaskNotFound(teamID, taskID)
	}
	t, err := backend.Decode(c.b, c.t, item, taskDecoder)
	return t, item, err
}

// taskUpdate is UpdateTask's write of what patch p sets, making the task
// read as item into t, and nothing else: another caller's change to an
// attribute the patch leaves alone stays. A date cleared (an app-written task
// without one) is removed with its sort key, never written as "" or
// "START#", so that the task stays out of that date's views. The write
// is conditional on every value it depends on being as read: the status
// (the counters move from it), both dates when one changes (their order
// was checked on them), and the tag references when the patch sets them
// (so that a tag deleted meanwhile is not written back, nor reported as
// the task's).
func (c *core) taskUpdate(p TaskPatch, t Task, item ddb.Item) backend.Write {
	want := taskItem(t)
	var u backend.Change
	set := func(attrs ...string) {
		for _, a := range attrs {
			if v, ok := want[a]; ok {
				u.Set(a, v)
			} else {
				u.Remove(a)
			}
		}
	}
	read := []string{attrStatus} // the attributes the write depends on, as read
	if p.Title != nil {
		set(attrTitle)
	}
	if p.Description != nil {
		set(attrTaskDesc)
	}
	if p.Status != nil {
		set(attrStatus, AttrStatusGroup1, AttrStatusGroup2, AttrStatusGroup3)
	}
	if p.Start != nil {
		set(attrStartTime, AttrStartSortSK)
	}
	if p.End != nil {
		set(attrEndTime, AttrEndSortSK)
	}
	if p.Start != nil || p.End != nil {
		read = append(read, attrStartTime, attrEndTime)
	}
	if p.TagIDs != nil {
		set(attrTagRef)
		read = append(read, attrTagRef)
	}
	return backend.Update(labelTask, c.t, taskKey(t.TeamID, t.ID).key(), u, backend.Unchanged(c.t, item, read))
}

// UpdateTask implements TaskStore.UpdateTask, which documents its errors.
func (c *core) UpdateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (_ Task, err error) {
	ctx, sp := c.start(ctx, "UpdateTask")
	defer sp.End(&err)
	// A repeat reads the task, as it is now: it moves no counter again.
	k := keying(c, c.scope("update task", teamPK(teamID)), c.replayTask, taskID, p)
	k.Ref = func(Task) backend.Key { return taskKey(teamID, taskID).key() } // a patch that changes nothing writes nothing
	return keyed(ctx, "update task", k, func(ctx context.Context) (Task, error) {
		return c.updateTask(ctx, teamID, taskID, p)
	})
}

// updateTask is UpdateTask's work, which Keyed runs.
func (c *core) updateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (Task, error) {
	const op = "update task"
	if err := validateTaskPatch(op, teamID, taskID, p); err != nil {
		return Task{}, err
	}
	if c.shardsErr != nil {
		return Task{}, wrap(op, c.shardsErr)
	}
	var out Task
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		old, item, err := c.task(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		t := old.patched(p)
		if err := checkPatched(t); err != nil {
			return err
		}
		if err := ddb.CheckItemSize(taskItem(t), "Description", 0); err != nil {
			return err
		}
		if t.equal(old) {
			out = t // nothing to write; also how a repeat of a committed update ends
			return nil
		}
		var added []int
		var ids []string
		if p.TagIDs != nil {
			ids = *p.TagIDs
			added = addedTags(old.TagIDs, t.TagIDs, ids)
		}
		ws := make([]backend.Write, 0, 1+len(added)+maxCounterWrites)
		ws = append(ws, c.taskUpdate(p, t, item))
		ws = c.tagChecks(ws, teamID, ids, added)
		ws = c.counterWrites(ws, teamID, taskID, moveDelta(old.Status, t.Status), c.read().today)
		err = c.b.Tx(ctx, r, ws)
		if err := tagError(err, ids, added); err != nil {
			return err
		}
		if prev, ok := backend.Failed(err, labelTask); ok {
			if prev == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return raced("task " + strconv.Quote(taskID))
		}
		out = t
		return err
	})
	if err != nil {
		return Task{}, wrap(op, err)
	}
	return out, nil
}

// DeleteTask implements TaskStore.DeleteTask, which documents its errors.
func (c *core) DeleteTask(ctx context.Context, teamID, taskID string) (err error) {
	ctx, sp := c.start(ctx, "DeleteTask")
	defer sp.End(&err)
	// A repeat is the first call's success: it uncounts nothing again.
	_, err = keyed(ctx, "delete task", committed(keying[struct{}](c, c.scope("delete task", teamPK(teamID)), nil, taskID)), func(ctx context.Context) (struct{}, error) {
		return struct{}{}, c.deleteTask(ctx, teamID, taskID)
	})
	return err
}

// deleteTask is DeleteTask's work, which Keyed runs.
func (c *core) deleteTask(ctx context.Context, teamID, taskID string) error {
	const op = "delete task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return err
	}
	if c.shardsErr != nil {
		return wrap(op, c.shardsErr)
	}
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		old, _, err := c.task(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		ws := make([]backend.Write, 0, 1+maxCounterWrites)
		ws = append(ws, backend.Delete(labelTask, c.t, taskKey(teamID, taskID).key(), ddb.Item{attrStatus: s(string(old.Status))}))
		ws = c.counterWrites(ws, teamID, taskID, deleteDelta(old.Status), "")
		err = c.b.Tx(ctx, r, ws)
		if prev, ok := backend.Failed(err, labelTask); ok {
			if prev == nil {
				return errTaskNotFound(teamID, taskID)
			}
			return raced("task " + strconv.Quote(taskID))
		}
		return err
	})
	return wrap(op, err)
}

// tagFilter is the board's tag filter: contains on the String Set, any
// or all of the tags (canonical: the same tags in any order give the same
// filter, which cursors bind).
func tagFilter(q BoardQuery) backend.Filter {
	tags := sortedTags(q.TagIDs)
	fs := make([]backend.Filter, len(tags))
	for i, id := range tags {
		fs[i] = backend.Contains(attrTagRef, tagRef(id))
	}
	if q.Match == MatchAll {
		return backend.And(fs...)
	}
	return backend.Or(fs...)
}

// ListBoard implements TaskStore.ListBoard, which documents its errors.
func (c *core) ListBoard(ctx context.Context, teamID string, q BoardQuery) (_ ddbkit.Page[Task], err error) {
	ctx, sp := c.start(ctx, "ListBoard")
	defer sp.End(&err)
	const op = "list board"
	if err := validateBoard(op, teamID, q); err != nil {
		return ddbkit.Page[Task]{}, err
	}
	kq := boardOf(q).keyQuery(c.t, teamID, c.read().today)
	p, err := listPage(ctx, c, kq, q.PageOptions, tagFilter(q), taskDecoder)
	return p, wrap(op, err)
}

// ---- counters

// GetCounts implements CounterStore.GetCounts, which documents its errors.
func (c *core) GetCounts(ctx context.Context, teamID string) (_ Counts, err error) {
	ctx, sp := c.start(ctx, "GetCounts")
	defer sp.End(&err)
	const op = "get counts"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Counts{}, err
	}
	if c.shardsErr != nil {
		return Counts{}, wrap(op, c.shardsErr)
	}
	if c.shards > 1 {
		cnt, _, err := c.shardedAll(ctx, teamID)
		return cnt, wrap(op, err)
	}
	item, err := c.get(ctx, counterKey(teamID, ""))
	if err != nil || item == nil {
		return Counts{}, wrap(op, err)
	}
	cnt, _, err := decodeCounts(c.t, item)
	return cnt, wrap(op, err)
}

// shardedAll reads every shard of COUNTER#ALL (one Query, consistent)
// and returns their sum, and the shards as read, by shard. It sums every
// shard there is, whatever Options.CounterShards says now.
func (c *core) shardedAll(ctx context.Context, teamID string) (Counts, map[int]ddb.Item, error) {
	var sum Counts
	shards := map[int]ddb.Item{}
	var derr error
	err := c.walk(ctx, counterAllQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
		sk, _ := backend.Str(it, AttrSK)
		day, shard, ok := counterSK(sk)
		if !ok || day != "" {
			return false // COUNTER#ALL followed by other text: not a shard
		}
		cnt, _, err := decodeCounts(c.t, it)
		if err != nil {
			derr = err
			return true
		}
		sum = Counts{Todo: sum.Todo + cnt.Todo, Doing: sum.Doing + cnt.Doing, Done: sum.Done + cnt.Done}
		shards[shard] = it
		return false
	})
	if err == nil {
		err = derr
	}
	return sum, shards, err
}

// ListDailyCounts implements CounterStore.ListDailyCounts, which documents its errors.
//
// TTL deletes late: the listing leaves out what has expired, with a
// filter on expiresAt against the clock of each page's read. The time is
// no argument of the caller's, so the page cursors do not bind it
// (backend.Unbound).
func (c *core) ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (_ ddbkit.Page[DailyCount], err error) {
	ctx, sp := c.start(ctx, "ListDailyCounts")
	defer sp.End(&err)
	const op = "list daily counts"
	if err := validateDaily(op, teamID, q); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	if c.shardsErr != nil {
		return ddbkit.Page[DailyCount]{}, wrap(op, c.shardsErr)
	}
	now := c.read().now.Unix()
	live := backend.Unbound(backend.Unexpired(AttrExpiresAt, now))
	if c.shards > 1 {
		p, err := c.listDailySharded(ctx, teamID, q, live)
		return p, wrap(op, err)
	}
	p, err := listPage(ctx, c, dailyQuery(c.t, teamID, q, false), q.PageOptions, live, dailyDecoder)
	return p, wrap(op, err)
}

// listDailySharded is ListDailyCounts of sharded counters: a page holds
// up to the limit of dates, each the sum of its shards, which sort
// together (COUNTER#<date>, then COUNTER#<date>#<n>). It reads until it
// has seen the first item of the date after the page, and its cursor
// resumes after the page's last date's last shard (backend.CursorAfter),
// so a date is never split between pages. Each Query reads at most
// (limit+1) × shards items. A Query that the filter budget ends with no
// item kept (expired counters) ends the page: after the date being summed,
// whose shards share its expiresAt and so were all read, or, with none
// yet, as an empty page whose cursor is past what was evaluated; so does a
// Query that read only counters that do not decode. Every other Query
// reads a counter the page sums, so a page makes at most (limit+1) ×
// shards + 1 Queries, whatever the partition holds.
func (c *core) listDailySharded(ctx context.Context, teamID string, q DailyQuery, live backend.Filter) (ddbkit.Page[DailyCount], error) {
	limit, err := q.EffectiveLimit()
	if err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	kq := c.budgeted(dailyQuery(c.t, teamID, q, true))
	var (
		p    ddbkit.Page[DailyCount]
		cur  *DailyCount // the date being summed
		last ddb.Item    // the last item of the last whole date in p
		prev ddb.Item    // the last item read
	)
	end := func() (ddbkit.Page[DailyCount], error) {
		if last == nil {
			return p, nil
		}
		next, err := backend.CursorAfter(c.b, kq, live, last)
		p.Next = next
		return p, err
	}
	for cursor := q.Cursor; ; {
		items, next, err := c.b.Query(ctx, kq, (limit+1)*c.shards, cursor, live)
		if err != nil {
			return ddbkit.Page[DailyCount]{}, err
		}
		counted := 0 // the counters this Query read that decode
		for _, it := range items {
			d, _, err := decodeDailyShard(c.t, it)
			if err != nil {
				if !isCorrupt(err) {
					return ddbkit.Page[DailyCount]{}, err
				}
				p.Skipped = append(p.Skipped, err)
				prev = it
				continue
			}
			counted++
			if cur != nil && d.Date == cur.Date {
				cur.Counts = Counts{Todo: cur.Todo + d.Todo, Doing: cur.Doing + d.Doing, Done: cur.Done + d.Done}
				if d.ExpiresAt.After(cur.ExpiresAt) {
					cur.ExpiresAt = d.ExpiresAt
				}
				prev = it
				continue
			}
			if cur != nil {
				p.Items = append(p.Items, *cur)
				last = prev
			}
			if len(p.Items) == limit {
				return end()
			}
			cur, prev = &d, it
		}
		switch {
		case next == "":
			if cur != nil {
				p.Items = append(p.Items, *cur)
			}
			return p, nil
		case counted == 0 && cur == nil:
			p.Next = next // the budget spent on expired or corrupt counters
			return p, nil
		case counted == 0:
			// The budget spent on expired counters after cur's shards,
			// which share cur's expiresAt, or a Query's worth of corrupt
			// ones: cur is whole, and the page's work stays bounded.
			p.Items, last = append(p.Items, *cur), prev
			return end()
		}
		cursor = next
	}
}

// isCorrupt reports an item that cannot be decoded, which listings and
// walks leave out.
func isCorrupt(err error) bool { return errors.Is(err, ddbkit.ErrCorruptItem) }

// RecalculateCounters implements CounterStore.RecalculateCounters, which documents its errors.
func (c *core) RecalculateCounters(ctx context.Context, teamID string) (_ CounterReport, err error) {
	ctx, sp := c.start(ctx, "RecalculateCounters")
	defer sp.End(&err)
	// A repeat recounts, without the key, and reports what it finds then.
	return keyed(ctx, "recalculate counters", keying[CounterReport](c, c.scope("recalculate counters", teamPK(teamID)), nil), func(ctx context.Context) (CounterReport, error) {
		return c.recalculateCounters(ctx, teamID)
	})
}

// recalculateCounters is RecalculateCounters's work, which Keyed runs.
func (c *core) recalculateCounters(ctx context.Context, teamID string) (CounterReport, error) {
	const op = "recalculate counters"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return CounterReport{}, err
	}
	if c.shardsErr != nil {
		return CounterReport{}, wrap(op, c.shardsErr)
	}
	if c.shards > 1 {
		rep, err := c.recalculateSharded(ctx, op, teamID)
		return rep, wrap(op, err)
	}
	var rep CounterReport
	k := counterKey(teamID, "")
	// One read-modify-write: a counter that changed since its read starts
	// the count over.
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		// The counter first: every task write changes it, so the condition
		// on it below catches any write after this read. The team with
		// it, in the same call: a team that does not exist (or no longer
		// does) gets no counter.
		items, err := c.b.BatchGet(ctx, c.t, []backend.Key{teamKey(teamID).key(), k.key()})
		if err != nil {
			return err
		}
		if items[0] == nil {
			return errTeamNotFound(teamID)
		}
		item := items[1]
		rep = CounterReport{}
		if item != nil {
			if rep.Was, _, err = decodeCounts(c.t, item); err != nil {
				return err
			}
		}
		if err := c.countTasks(ctx, op, teamID, &rep); err != nil {
			return err
		}
		rep.Drift = rep.Counts != rep.Was
		if !rep.Drift && item != nil && !expiring(item) {
			return nil
		}
		// The team's check rides with the write, so that a team deleted
		// since the read gets no counter either.
		err = c.b.Tx(ctx, r, []backend.Write{
			backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
			backend.Update(labelAll, c.t, k.key(), recount(rep.Counts), c.unchangedCounter(item)),
		})
		return recountFailed(err, teamID)
	})
	if err != nil {
		return CounterReport{}, wrap(op, err)
	}
	return rep, nil
}

// recalculateSharded is RecalculateCounters of sharded counters: it
// writes the count to shard 0 and deletes the other shards, in one
// transaction conditioned on every shard as read (a task write since
// changed one) and on the team.
func (c *core) recalculateSharded(ctx context.Context, op, teamID string) (CounterReport, error) {
	var rep CounterReport
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		team, err := c.get(ctx, teamKey(teamID))
		if err != nil {
			return err
		}
		if team == nil {
			return errTeamNotFound(teamID)
		}
		// The shards before the tasks: the conditions below then catch any
		// task write after this read.
		was, shards, err := c.shardedAll(ctx, teamID)
		if err != nil {
			return err
		}
		rep = CounterReport{Was: was}
		if err := c.countTasks(ctx, op, teamID, &rep); err != nil {
			return err
		}
		counts := rep.Counts
		rep.Drift = counts != was
		expires := false
		for _, it := range shards {
			expires = expires || expiring(it)
		}
		if !rep.Drift && !expires {
			return nil // the shards sum to the count: leave them spread
		}
		ws := []backend.Write{
			backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
			backend.Update(labelAll, c.t, counterKey(teamID, "").key(), recount(counts), c.unchangedCounter(shards[0])),
		}
		for _, shard := range slices.Sorted(maps.Keys(shards)) {
			if shard == 0 {
				continue
			}
			it := shards[shard]
			want := ddb.Item{}
			for _, st := range Statuses {
				if v, ok := it[string(st)]; ok {
					want[string(st)] = v
				}
			}
			k := counterShardKey(teamID, "", shard)
			ws = append(ws, backend.Delete(k.sk, c.t, k.key(), want))
		}
		return recountFailed(c.b.Tx(ctx, r, ws), teamID)
	})
	return rep, err
}

// expiring reports a counter with an expiresAt TTL acts on (a Number; a
// NULL another writer set is none), which a recount removes.
func expiring(item ddb.Item) bool {
	_, ok := item[AttrExpiresAt].(*types.AttributeValueMemberN)
	return ok
}

// countTasks counts the team's tasks by status into rep (Counts and
// Checked), and reports in rep.Skipped, under op, each task it cannot
// decode, which it leaves uncounted.
func (c *core) countTasks(ctx context.Context, op, teamID string, rep *CounterReport) error {
	rep.Counts, rep.Checked, rep.Skipped = Counts{}, 0, nil
	var derr error
	err := c.walk(ctx, tasksQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
		t, err := backend.Decode(c.b, c.t, it, taskDecoder)
		if err != nil {
			if !isCorrupt(err) {
				derr = err
				return true
			}
			rep.Skipped = append(rep.Skipped, wrap(op, err))
			return false
		}
		rep.Checked++
		rep.Counts = rep.Counts.add(t.Status, 1)
		return false
	})
	if err == nil {
		err = derr
	}
	return err
}

// recount sets a counter to counts, removing expiresAt (see
// counterWrites).
func recount(counts Counts) backend.Change {
	var u backend.Change
	u.Set(attrType, s(typeCounter))
	for _, st := range Statuses {
		u.Set(string(st), n(int64(counts.Get(st))))
	}
	u.Remove(AttrExpiresAt)
	return u
}

// unchangedCounter is the condition that a counter is as read: absent if
// it was, else holding the counts read (missing where it had none).
func (c *core) unchangedCounter(item ddb.Item) backend.Cond {
	if item == nil {
		return backend.Absent()
	}
	attrs := make([]string, len(Statuses))
	for i, st := range Statuses {
		attrs[i] = string(st)
	}
	return backend.Unchanged(c.t, item, attrs)
}

// recountFailed maps the failure of a recount's transaction: the team
// gone, or a counter changed since its read (the recount starts over).
func recountFailed(err error, teamID string) error {
	if _, ok := backend.Failed(err, labelTeam); ok {
		return errTeamNotFound(teamID)
	}
	if _, ok := backend.Failed(err, ""); ok {
		return raced("COUNTER#ALL of team " + strconv.Quote(teamID))
	}
	return err
}
