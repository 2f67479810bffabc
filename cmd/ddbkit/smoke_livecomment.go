package main

import (
	"context"
	"fmt"

	kit "github.com/ddbkit/ddbkit"
	"github.com/ddbkit/ddbkit/livecomment"
)

// smokeLivecomment: the run's partitions are its two rooms' (roomId
// <run ID>-001 and -002, in Rooms and Comments) and its two connections'
// (connectionId <run ID>-conn-1 and -2); its host, <run ID>-host, is its
// own partition of hostId-index. The seed deletes neither rooms nor
// comments: the run disconnects through the store and deletes the rest by
// key, in those partitions. Under -comment-shards, a room's comments are in
// its shards' partitions (livecomment.CommentPartitions), the run's too.
func smokeLivecomment(r *smokeRun, tf *tableFlags, tables []string) error {
	ctx := r.ctx
	n := livecomment.Tables(tf.env)
	s := livecomment.NewDynamoStore(r.c, func(o *livecomment.Options) {
		o.Env = tf.env
		o.NewID = r.newID
		o.CommentShards = r.commentShards
	})
	host := r.id + "-host"
	var rooms []livecomment.Room
	for i := range 2 {
		id := r.peekID()
		r.owns(n.Rooms, "roomId", id)
		for _, p := range livecomment.CommentPartitions(id, r.commentShards) {
			r.owns(n.Comments, "roomId", p)
		}
		if err := r.write(fmt.Sprintf("room %d", i+1), func() error {
			room, err := s.CreateRoom(ctx, livecomment.NewRoom{Name: "ddbkit smoke", HostID: host})
			rooms = append(rooms, room)
			return madeAs("room", room.ID, id, err)
		}); err != nil {
			return err
		}
	}
	open, closed := rooms[0].ID, rooms[1].ID
	if err := r.write("room 2 closed", func() error {
		_, err := s.CloseRoom(ctx, closed)
		return err
	}); err != nil {
		return err
	}
	var comments []string
	for i := range 2 {
		if err := r.write(fmt.Sprintf("comment %d in room 1", i+1), func() error {
			c, err := s.PostComment(ctx, open, livecomment.NewComment{Content: fmt.Sprintf("ddbkit smoke %d", i+1)})
			comments = append(comments, c.ID)
			return err
		}); err != nil {
			return err
		}
	}
	var conns []string
	for i := range 2 {
		conn := fmt.Sprintf("%s-conn-%d", r.id, i+1)
		r.owns(n.Connections, "connectionId", conn)
		if err := r.write("connection "+conn+" to room 1", func() error {
			_, err := s.JoinRoom(ctx, open, conn)
			return err
		}); err != nil {
			return err
		}
		conns = append(conns, conn)
		r.onCleanup("connection "+conn+" (Disconnect)", func(ctx context.Context) error { return s.Disconnect(ctx, conn) })
	}
	type page = kit.PageOptions
	return r.readAll(
		getRead("GetRoom 1", false, func() (livecomment.RoomStatus, error) { x, err := s.GetRoom(ctx, open); return x.Status, err }, livecomment.RoomOpen),
		getRead("GetRoom 2", false, func() (livecomment.RoomStatus, error) { x, err := s.GetRoom(ctx, closed); return x.Status, err }, livecomment.RoomClosed),
		getRead("GetConnection 1", false, func() (string, error) { x, err := s.GetConnection(ctx, conns[0]); return x.RoomID, err }, open),
		getRead("GetConnection 2", false, func() (string, error) { x, err := s.GetConnection(ctx, conns[1]); return x.RoomID, err }, open),
		listRead("ListHostRooms ("+livecomment.HostIDIndex+")", true, func(o page) (kit.Page[livecomment.Room], error) { return s.ListHostRooms(ctx, host, o) },
			func(r livecomment.Room) string { return r.ID }, closed, open), // newest first
		listRead("ListComments ("+livecomment.CommentsByTimeIndex+")", true, func(o page) (kit.Page[livecomment.Comment], error) { return s.ListComments(ctx, open, o) },
			func(c livecomment.Comment) string { return c.ID }, comments...), // oldest first
		smokeRead{"ListConnections (" + livecomment.RoomIDIndex + ")", true, func() error {
			// The index has no sort key: any order.
			ids, err := listIDs(func(o page) (kit.Page[livecomment.Connection], error) { return s.ListConnections(ctx, open, o) },
				func(c livecomment.Connection) string { return c.ID })
			return sameIDs(sortedIDs(ids), err, conns...)
		}},
	)
}
