package bedrock

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// TestResolveTarget: the endpoint and region of a request, as pi-ai
// decides them from the model, the options and the environment.
func TestResolveTarget(t *testing.T) {
	const std = "https://bedrock-runtime.eu-west-1.amazonaws.com"
	tests := []struct {
		name    string
		opts    Options
		env     map[string]string
		id      string
		baseURL string
		want    target
	}{
		{name: "defaults", want: target{region: "us-east-1"}},
		{name: "AWS_REGION", env: map[string]string{"AWS_REGION": "eu-north-1", "AWS_DEFAULT_REGION": "x"}, want: target{region: "eu-north-1"}},
		{name: "AWS_DEFAULT_REGION", env: map[string]string{"AWS_DEFAULT_REGION": "ap-east-1"}, want: target{region: "ap-east-1"}},
		{name: "option region first", opts: Options{Region: "sa-east-1"}, env: map[string]string{"AWS_REGION": "eu-north-1"}, want: target{region: "sa-east-1"}},
		{name: "ARN region wins", opts: Options{Region: "sa-east-1"}, id: "arn:aws:bedrock:us-west-2:123:inference-profile/x", want: target{region: "us-west-2"}},
		{name: "GovCloud ARN", id: "arn:aws-us-gov:bedrock:us-gov-west-1:123:x", want: target{region: "us-gov-west-1"}},
		{name: "standard endpoint pinned", baseURL: std, want: target{endpoint: std, region: "eu-west-1"}},
		{name: "standard endpoint yields to a region", baseURL: std, env: map[string]string{"AWS_REGION": "us-west-2"}, want: target{region: "us-west-2"}},
		{name: "standard endpoint yields to a profile", baseURL: std, env: map[string]string{"AWS_PROFILE": "p"}, want: target{}},
		{name: "custom endpoint kept", baseURL: "https://vpce.example/", env: map[string]string{"AWS_REGION": "us-west-2"}, want: target{endpoint: "https://vpce.example", region: "us-west-2"}},
		{name: "option endpoint wins", opts: Options{BaseURL: std}, env: map[string]string{"AWS_REGION": "us-west-2"}, want: target{endpoint: std, region: "us-west-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Getenv = func(k string) string { return tt.env[k] }
			got := tt.opts.resolveTarget(agentcore.Model{ID: tt.id, BaseURL: tt.baseURL})
			assert.Equal(t, tt.want, got)
		})
	}
	assert.Equal(t, "https://bedrock-runtime.cn-north-1.amazonaws.com.cn", endpointFor("cn-north-1"))
}
