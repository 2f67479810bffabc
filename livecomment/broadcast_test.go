package livecomment_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/ddbkit/ddbkit/livecomment"
)

func TestIsGone(t *testing.T) {
	status := func(code int) error {
		return &smithy.OperationError{ServiceID: "ApiGatewayManagementApi", OperationName: "PostToConnection",
			Err: &awshttp.ResponseError{ResponseError: &smithyhttp.ResponseError{
				Response: &smithyhttp.Response{Response: &http.Response{StatusCode: code}}, Err: errors.New("response error")}}}
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"ErrGone", livecomment.ErrGone, true},
		{"wrapped ErrGone", fmt.Errorf("send: %w", livecomment.ErrGone), true},
		{"GoneException", &smithy.OperationError{Err: &smithy.GenericAPIError{Code: "GoneException"}}, true},
		{"HTTP 410", status(410), true},
		{"HTTP 500", status(500), false},
		{"another API error", &smithy.GenericAPIError{Code: "LimitExceededException"}, false},
		{"nil", nil, false},
		{"plain error", errors.New("gone"), false},
	}
	for _, tt := range tests {
		if got := livecomment.IsGone(tt.err); got != tt.want {
			t.Errorf("IsGone(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
