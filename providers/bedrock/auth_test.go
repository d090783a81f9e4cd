package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// verifySignature signs a copy of r anew with creds at its X-Amz-Date and
// reports whether its Authorization is the same: the body, the path and
// every signed header reached the server as they were signed.
func verifySignature(t *testing.T, r *http.Request, body []byte, creds aws.Credentials, region string) bool {
	t.Helper()
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	require.NoError(t, err)
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	c, err := http.NewRequest(r.Method, u.String(), bytes.NewReader(body))
	require.NoError(t, err)
	c.Header = r.Header.Clone()
	c.Header.Del("Authorization")
	c.Header.Del("Accept-Encoding") // added by the transport after signing
	sum := sha256.Sum256(body)
	require.NoError(t, v4.NewSigner().SignHTTP(context.Background(), creds, c, hex.EncodeToString(sum[:]), "bedrock", region, at))
	return c.Header.Get("Authorization") == r.Header.Get("Authorization")
}

// TestAuthentication: a bearer token (the option, the request's key, the
// environment's) is sent as is; without one the request is signed with
// SigV4 for the region, by the option's credentials, the environment's
// keys or a dummy pair when auth is skipped, a replaced body included.
func TestAuthentication(t *testing.T) {
	envKeys := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secret-env", "AWS_SESSION_TOKEN": "session-env", "AWS_REGION": "eu-west-3"}
	tests := []struct {
		name    string
		opts    Options
		env     map[string]string
		apiKey  string
		payload bool // OnPayload replaces the body
		bearer  string
		creds   aws.Credentials
		region  string
	}{
		{name: "option token", opts: Options{BearerToken: "opt-token"}, apiKey: "key", bearer: "opt-token"},
		{name: "request key", apiKey: "key", bearer: "key"},
		{name: "environment token", env: map[string]string{"AWS_BEARER_TOKEN_BEDROCK": "env-token"}, bearer: "env-token"},
		{name: "placeholder key is no token", apiKey: "<authenticated>", env: envKeys,
			creds: aws.Credentials{AccessKeyID: "AKIDENV", SecretAccessKey: "secret-env", SessionToken: "session-env"}, region: "eu-west-3"},
		{name: "environment keys", env: envKeys, payload: true,
			creds: aws.Credentials{AccessKeyID: "AKIDENV", SecretAccessKey: "secret-env", SessionToken: "session-env"}, region: "eu-west-3"},
		{name: "option credentials", opts: Options{Region: "ap-south-1", Credentials: aws.NewCredentialsCache(staticCreds("AKIDOPT:secret-opt"))}, env: envKeys,
			creds: aws.Credentials{AccessKeyID: "AKIDOPT", SecretAccessKey: "secret-opt"}, region: "ap-south-1"},
		{name: "skip auth", env: map[string]string{"AWS_BEDROCK_SKIP_AUTH": "1", "AWS_BEARER_TOKEN_BEDROCK": "ignored"}, apiKey: "ignored",
			creds: aws.Credentials{AccessKeyID: "dummy-access-key", SecretAccessKey: "dummy-secret-key"}, region: "us-east-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var verified, sawBearer bool
			var auth string
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				auth = r.Header.Get("Authorization")
				if tt.bearer == "" {
					verified = verifySignature(t, r, body, tt.creds, tt.region)
				} else {
					sawBearer = auth == "Bearer "+tt.bearer
				}
				w.Write(providertest.ReadTestdata(t, "stream", "text.bin"))
			})
			opts := tt.opts
			opts.BaseURL, opts.Getenv = srv.URL, func(k string) string { return tt.env[k] }
			so := agentcore.StreamOptions{APIKey: tt.apiKey, Headers: map[string]string{"X-Custom": "signed too"}}
			if tt.payload {
				so.OnPayload = func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
					return json.RawMessage(`{"messages":[]}`), nil
				}
			}
			_, final := providertest.Collect(StreamFn(opts)(t.Context(), testTarget(t).Model, providertest.HiRequest(), so), nil)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			if tt.bearer != "" {
				assert.True(t, sawBearer, "authorization %q", auth)
				return
			}
			assert.True(t, strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential="+tt.creds.AccessKeyID+"/"), auth)
			assert.Contains(t, auth, "/"+tt.region+"/bedrock/aws4_request")
			assert.True(t, verified, "the signature does not verify: %s", auth)
		})
	}
}

type staticCreds string

func (s staticCreds) Retrieve(context.Context) (aws.Credentials, error) {
	id, secret, _ := strings.Cut(string(s), ":")
	return aws.Credentials{AccessKeyID: id, SecretAccessKey: secret}, nil
}

// TestSharedConfigProfile: with a profile named (option or AWS_PROFILE)
// the default chain reads the shared config files: the profile's keys
// sign the request, for its region when none is configured; the named
// profile wins over the environment's keys.
func TestSharedConfigProfile(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "credentials")
	cfg := filepath.Join(dir, "config")
	require.NoError(t, os.WriteFile(creds, []byte("[work]\naws_access_key_id = AKIDWORK\naws_secret_access_key = secret-work\n[bare]\naws_access_key_id = AKIDBARE\naws_secret_access_key = secret-bare\n"), 0o600))
	require.NoError(t, os.WriteFile(cfg, []byte("[profile work]\nregion = eu-central-1\n"), 0o600))
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_BEARER_TOKEN_BEDROCK"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", creds)
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	tests := []struct {
		name   string
		opts   Options
		env    map[string]string
		region string
	}{
		// The profile decides the region when nothing else does.
		{name: "AWS_PROFILE", env: map[string]string{"AWS_PROFILE": "work"}, region: "eu-central-1"},
		// A profile named in Options wins over the environment's keys;
		// without AWS_PROFILE the region is pi-ai's default.
		{name: "option over environment keys", opts: Options{Profile: "work"},
			env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secret-env"}, region: "us-east-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var verified bool
			var auth string
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				auth = r.Header.Get("Authorization")
				verified = verifySignature(t, r, body, aws.Credentials{AccessKeyID: "AKIDWORK", SecretAccessKey: "secret-work"}, tt.region)
				w.Write(providertest.ReadTestdata(t, "stream", "text.bin"))
			})
			opts := tt.opts
			opts.BaseURL, opts.Getenv = srv.URL, func(k string) string { return tt.env[k] }
			_, final := providertest.Collect(StreamFn(opts)(t.Context(), testTarget(t).Model, providertest.HiRequest(), agentcore.StreamOptions{}), nil)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			assert.Contains(t, auth, "Credential=AKIDWORK/")
			assert.Contains(t, auth, "/"+tt.region+"/bedrock/")
			assert.True(t, verified, auth)
		})
	}
	t.Run("a profile without a region and no endpoint", func(t *testing.T) {
		opts := Options{Getenv: func(k string) string { return map[string]string{"AWS_PROFILE": "bare"}[k] }}
		_, final := providertest.Collect(StreamFn(opts)(t.Context(), agentcore.Model{ID: "m", API: API}, providertest.HiRequest(), agentcore.StreamOptions{}), nil)
		require.NotNil(t, final)
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.ErrorIs(t, final.Err, ErrNoRegion)
		assert.Equal(t, "Region is missing", final.ErrorMessage)
	})
}
