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

func TestMemorySharded(t *testing.T) {
	taskmgmttest.RunSharded(t, func(t *testing.T, opts ...func(*taskmgmt.Options)) taskmgmt.Store {
		return taskmgmt.NewMemoryStore(opts...)
	})
}
