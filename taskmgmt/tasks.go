package taskmgmt

import (
	"context"
	"errors"
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
func (c *core) CreateTag(ctx context.Context, teamID string, in NewTag) (Tag, error) {
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
		backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
		backend.PutNew(labelTag, c.t, item),
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
func (c *core) ListTags(ctx context.Context, teamID string, o ddbkit.PageOptions) (ddbkit.Page[Tag], error) {
	const op = "list tags"
	if err := validateList(op, "TeamID", teamID, o); err != nil {
		return ddbkit.Page[Tag]{}, err
	}
	p, err := listPage(ctx, c, tagsQuery(c.t, teamID), o, backend.Filter{}, tagDecoder)
	return p, wrap(op, err)
}

// DeleteTag implements TagStore.DeleteTag, which documents its errors.
func (c *core) DeleteTag(ctx context.Context, teamID, actorID, tagID string) error {
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
		for batch := range slices.Chunk(tagged, ddb.MaxTxItems) {
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

// counterWrites returns the counter updates of d, with ADD: they create
// a missing counter and its three counts.
func (c *core) counterWrites(teamID string, d delta, today Date) []backend.Write {
	var ws []backend.Write
	add := func(label string, day Date, by Counts, exp int64) {
		if by == (Counts{}) {
			return
		}
		var u backend.Change
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
		ws = append(ws, backend.Update(label, c.t, counterKey(teamID, day).key(), u, backend.Cond{}))
	}
	add(labelAll, "", d.all, 0)
	if d.day != (Counts{}) {
		add(labelDay, today, d.day, c.o.expiresAt(today))
	}
	return ws
}

// tagChecks returns the checks that each of the tags at idx exists,
// labelled by its input field.
func (c *core) tagChecks(teamID string, ids []string, idx []int) []backend.Write {
	ws := make([]backend.Write, 0, len(idx))
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
func (c *core) CreateTask(ctx context.Context, teamID string, in NewTask) (Task, error) {
	const op = "create task"
	if err := validateNewTask(op, teamID, in); err != nil {
		return Task{}, err
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
	ws := []backend.Write{backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil)}
	ws = append(ws, c.tagChecks(teamID, in.TagIDs, all)...)
	ws = append(ws, backend.PutNew(labelTask, c.t, item))
	ws = append(ws, c.counterWrites(teamID, createDelta(task.Status), today)...)
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
func (c *core) GetTask(ctx context.Context, teamID, taskID string) (Task, error) {
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
func (c *core) UpdateTask(ctx context.Context, teamID, taskID string, p TaskPatch) (Task, error) {
	const op = "update task"
	if err := validateTaskPatch(op, teamID, taskID, p); err != nil {
		return Task{}, err
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
		ws := []backend.Write{c.taskUpdate(p, t, item)}
		ws = append(ws, c.tagChecks(teamID, ids, added)...)
		ws = append(ws, c.counterWrites(teamID, moveDelta(old.Status, t.Status), c.read().today)...)
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
func (c *core) DeleteTask(ctx context.Context, teamID, taskID string) error {
	const op = "delete task"
	if err := validateIDs(op, "TeamID", teamID, "TaskID", taskID); err != nil {
		return err
	}
	err := c.rmw(ctx, c.scope(op, teamPK(teamID)), func(r *backend.Run) error {
		old, _, err := c.task(ctx, teamID, taskID)
		if err != nil {
			return err
		}
		ws := []backend.Write{backend.Delete(labelTask, c.t, taskKey(teamID, taskID).key(), ddb.Item{attrStatus: s(string(old.Status))})}
		ws = append(ws, c.counterWrites(teamID, deleteDelta(old.Status), "")...)
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
func (c *core) ListBoard(ctx context.Context, teamID string, q BoardQuery) (ddbkit.Page[Task], error) {
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
func (c *core) GetCounts(ctx context.Context, teamID string) (Counts, error) {
	const op = "get counts"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return Counts{}, err
	}
	item, err := c.get(ctx, counterKey(teamID, ""))
	if err != nil || item == nil {
		return Counts{}, wrap(op, err)
	}
	cnt, _, err := decodeCounts(c.t, item)
	return cnt, wrap(op, err)
}

// ListDailyCounts implements CounterStore.ListDailyCounts, which documents its errors.
//
// TTL deletes late: the listing leaves out what has expired, with a
// filter on expiresAt against the clock of each page's read. The time is
// no argument of the caller's, so the page cursors do not bind it
// (backend.Unbound).
func (c *core) ListDailyCounts(ctx context.Context, teamID string, q DailyQuery) (ddbkit.Page[DailyCount], error) {
	const op = "list daily counts"
	if err := validateDaily(op, teamID, q); err != nil {
		return ddbkit.Page[DailyCount]{}, err
	}
	now := c.read().now.Unix()
	live := backend.Unbound(backend.Or(backend.Missing(AttrExpiresAt), backend.Greater(AttrExpiresAt, n(now))))
	p, err := listPage(ctx, c, dailyQuery(c.t, teamID, q), q.PageOptions, live, dailyDecoder)
	return p, wrap(op, err)
}

// isCorrupt reports an item that cannot be decoded, which listings and
// walks leave out.
func isCorrupt(err error) bool { return errors.Is(err, ddbkit.ErrCorruptItem) }

// RecalculateCounters implements CounterStore.RecalculateCounters, which documents its errors.
func (c *core) RecalculateCounters(ctx context.Context, teamID string) (CounterReport, error) {
	const op = "recalculate counters"
	if err := validateIDs(op, "TeamID", teamID); err != nil {
		return CounterReport{}, err
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
		var derr error
		err = c.walk(ctx, tasksQuery(c.t, teamID), backend.Filter{}, func(it ddb.Item) bool {
			t, err := backend.Decode(c.b, c.t, it, taskDecoder)
			if err != nil {
				if !isCorrupt(err) {
					derr = err
					return true
				}
				return false
			}
			rep.Counts = rep.Counts.add(t.Status, 1)
			return false
		})
		if err == nil {
			err = derr
		}
		if err != nil {
			return err
		}
		rep.Drift = rep.Counts != rep.Was
		if _, expires := item[AttrExpiresAt]; !rep.Drift && item != nil && !expires {
			return nil
		}
		cond := backend.Absent()
		if item != nil {
			fs := []backend.Filter{backend.Equal(AttrPK, s(k.pk))}
			for _, st := range Statuses {
				if v, ok := item[string(st)]; ok {
					fs = append(fs, backend.Equal(string(st), v))
				} else {
					fs = append(fs, backend.Missing(string(st)))
				}
			}
			cond = backend.When(backend.And(fs...))
		}
		var u backend.Change
		u.Set(attrType, s(typeCounter))
		for _, st := range Statuses {
			u.Set(string(st), n(int64(rep.Counts.Get(st))))
		}
		u.Remove(AttrExpiresAt) // see counterWrites
		// The team's check rides with the write, so that a team deleted
		// since the read gets no counter either.
		err = c.b.Tx(ctx, r, []backend.Write{
			backend.Check(labelTeam, c.t, teamKey(teamID).key(), nil),
			backend.Update(labelAll, c.t, k.key(), u, cond),
		})
		if _, ok := backend.Failed(err, labelTeam); ok {
			return errTeamNotFound(teamID)
		}
		if _, ok := backend.Failed(err, ""); ok {
			return raced("COUNTER#ALL of team " + strconv.Quote(teamID))
		}
		return err
	})
	if err != nil {
		return CounterReport{}, wrap(op, err)
	}
	return rep, nil
}
