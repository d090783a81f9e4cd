package bedrock

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/config"
)

// authenticatedPlaceholder is the key pi's environment lookup answers for
// Bedrock when credentials exist but are no key; it is never a token.
const authenticatedPlaceholder = "<authenticated>"

// ErrNoRegion is the cause of a request whose region nothing configures:
// AWS_PROFILE names a profile without one and no endpoint is given.
var ErrNoRegion = errors.New("Region is missing")

// chains loads the default credential chain once per profile and keeps
// it (its credentials cached and refreshed by the SDK) for the stream
// function's later requests.
type chains struct {
	mu     sync.Mutex
	loaded map[string]aws.Config
}

// config returns the default configuration of profile (empty: the SDK's
// choice), loading it on first use. A failed load is not kept.
func (c *chains) config(ctx context.Context, profile string) (aws.Config, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cfg, ok := c.loaded[profile]; ok {
		return cfg, nil
	}
	var opts []func(*config.LoadOptions) error
	if profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(profile))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, err
	}
	if c.loaded == nil {
		c.loaded = map[string]aws.Config{}
	}
	c.loaded[profile] = cfg
	return cfg, nil
}

// auth is how one request authenticates: a bearer token, or credentials
// to sign it with for region.
type auth struct {
	token  string
	creds  aws.Credentials
	region string
}

// resolveAuth decides a request's authentication and completes its
// target's region, as pi-ai does (see [Options.direct]); the default
// chain, loaded for the profile of Options or AWS_PROFILE, gives the
// credentials when nothing else does and the region when nothing sets
// one.
func (c *chains) resolveAuth(ctx context.Context, o Options, apiKey string, t *target) (auth, error) {
	a, chain, err := o.direct(ctx, apiKey)
	if err != nil {
		return auth{}, err
	}
	a.region = t.region
	if !chain && (t.region != "" || t.endpoint != "") {
		return a, nil
	}
	cfg, err := c.config(ctx, firstNonEmpty(o.Profile, o.getenv("AWS_PROFILE")))
	if err != nil {
		return auth{}, fmt.Errorf("Could not load the AWS configuration: %w", err)
	}
	if a.region == "" {
		a.region, t.region = cfg.Region, cfg.Region
	}
	if chain {
		if a.creds, err = cfg.Credentials.Retrieve(ctx); err != nil {
			return auth{}, fmt.Errorf("Could not load AWS credentials: %w", err)
		}
	}
	if a.region == "" && t.endpoint == "" {
		return auth{}, ErrNoRegion
	}
	return a, nil
}

// direct is the authentication that needs no credential chain, or chain
// true when the chain must give the credentials: a bearer token
// (Options.BearerToken, the request's key, AWS_BEARER_TOKEN_BEDROCK)
// unless AWS_BEDROCK_SKIP_AUTH=1, which signs with dummy keys for proxies
// that need none; else Options.Credentials; else the environment's keys
// unless a profile is named in Options.
func (o Options) direct(ctx context.Context, apiKey string) (a auth, chain bool, err error) {
	if apiKey == authenticatedPlaceholder {
		apiKey = ""
	}
	skip := o.getenv("AWS_BEDROCK_SKIP_AUTH") == "1"
	token := firstNonEmpty(o.BearerToken, apiKey, o.getenv("AWS_BEARER_TOKEN_BEDROCK"))
	switch {
	case token != "" && !skip:
		a.token = token
	case skip:
		a.creds = aws.Credentials{AccessKeyID: "dummy-access-key", SecretAccessKey: "dummy-secret-key"}
	case o.Credentials != nil:
		if a.creds, err = o.Credentials.Retrieve(ctx); err != nil {
			return auth{}, false, fmt.Errorf("Could not load AWS credentials: %w", err)
		}
	case o.getenv("AWS_ACCESS_KEY_ID") != "" && o.getenv("AWS_SECRET_ACCESS_KEY") != "" && o.Profile == "":
		a.creds = aws.Credentials{AccessKeyID: o.getenv("AWS_ACCESS_KEY_ID"), SecretAccessKey: o.getenv("AWS_SECRET_ACCESS_KEY"), SessionToken: o.getenv("AWS_SESSION_TOKEN")}
	default:
		chain = true
	}
	return a, chain, nil
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// signingTransport signs each request it sends with SigV4 for Bedrock, a
// copy of the request, its body hashed: retries and same-origin
// redirects are signed anew.
type signingTransport struct {
	base   http.RoundTripper
	creds  aws.Credentials
	region string
	signer *v4.Signer
}

// signed returns a copy of client whose transport signs with a's
// credentials (nil means http.DefaultClient's).
func signed(client *http.Client, a auth) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &signingTransport{base: base, creds: a.creds, region: a.region, signer: v4.NewSigner()}
	return &c
}

func (t *signingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		body, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
	}
	if req.Body != nil {
		req.Body.Close()
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	sum := sha256.Sum256(body)
	if err := t.signer.SignHTTP(req.Context(), t.creds, r, hex.EncodeToString(sum[:]), "bedrock", t.region, time.Now()); err != nil {
		return nil, err
	}
	return t.base.RoundTrip(r)
}
