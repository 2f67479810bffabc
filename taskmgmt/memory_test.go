package taskmgmt_test

import (
	"testing"

	"github.com/ddbkit/ddbkit/taskmgmt"
	"github.com/ddbkit/ddbkit/taskmgmt/taskmgmttest"
)

func TestMemoryStore(t *testing.T) {
	taskmgmttest.Run(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}

func TestMemoryInvitations(t *testing.T) {
	taskmgmttest.RunInvitations(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}

func TestMemoryShardedCounters(t *testing.T) {
	taskmgmttest.RunShardedCounters(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}
