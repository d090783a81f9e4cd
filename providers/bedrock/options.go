package bedrock

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// API is the value of [agentcore.Model.API] this package's stream
// function speaks, pi-ai's name for Bedrock's ConverseStream.
const API = "bedrock-converse-stream"

// Options configure [StreamFn]. The zero value signs requests with the AWS
// credential chain (environment, shared config and its profiles, SSO, web
// identity, container and instance roles) or, when there is one, sends
// the Bedrock API key as a bearer token, to the region's endpoint.
type Options struct {
	// Region is the AWS region. Empty means, as pi-ai decides: the
	// region of an inference-profile ARN model ID, else AWS_REGION, else
	// AWS_DEFAULT_REGION, else the region of a standard Bedrock endpoint
	// in the model's BaseURL, else the shared config profile's region
	// when AWS_PROFILE names one, else us-east-1. The model's ARN wins
	// over Region.
	Region string
	// BaseURL is the endpoint requests go to, such as a VPC endpoint or a
	// proxy ("https://bedrock.internal.example"); requests go to BaseURL +
	// "/model/ID/converse-stream". Empty means the model's BaseURL unless
	// it is a standard Bedrock endpoint and a region or AWS_PROFILE is
	// configured, in which case, as when both are empty, the region's
	// endpoint https://bedrock-runtime.REGION.amazonaws.com is used.
	BaseURL string
	// Profile is the shared config profile the credential chain reads;
	// empty means AWS_PROFILE, else "default". A profile named here or in
	// AWS_PROFILE wins over AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
	Profile string
	// BearerToken is the Bedrock API key, sent as "Authorization: Bearer"
	// instead of a signature. Empty means the request's
	// [agentcore.StreamOptions.APIKey], else AWS_BEARER_TOKEN_BEDROCK;
	// none means the request is signed (SigV4).
	BearerToken string
	// Credentials, when not nil, sign every request that has no bearer
	// token, instead of the keys of the environment and the default
	// credential chain. It is called on the goroutine ranging over a
	// stream, with the stream's ctx, before each request; wrap it in
	// [aws.NewCredentialsCache] when retrieving is costly.
	Credentials aws.CredentialsProvider
	// Getenv reads the environment variables named above and
	// AWS_BEDROCK_SKIP_AUTH, AWS_BEDROCK_FORCE_CACHE and PI_CACHE_RETENTION
	// (see the package doc); nil means [os.Getenv]. It is called on the
	// goroutine ranging over a stream. The default credential chain
	// itself reads the process environment.
	Getenv func(string) string
	// Headers are added to every request, after the identity's and
	// before the request's [agentcore.StreamOptions.Headers]; later ones
	// win and an empty value removes one. Authorization, Host and x-amz-*
	// headers, which the signature and the bearer token own, are never
	// set from here. The map is copied.
	Headers map[string]string
	// HTTPClient sends the requests; nil means [http.DefaultClient]. Its
	// Timeout, if any, bounds a whole streamed response: prefer ctx and
	// [agentcore.StreamOptions.Timeout]. Whatever its CheckRedirect, a
	// redirect to another origin than the request URL's is refused with
	// [agentcore.ErrCrossOriginRedirect]; HTTPClient itself is not
	// changed.
	HTTPClient *http.Client
	// MaxResponseBytes caps the content one response may build: the bytes
	// of its text, thinking, signatures (encrypted reasoning counted as
	// base64) and tool calls (IDs, names and argument text). A response
	// past it ends as an error with the content that fit, its Err
	// wrapping [agentcore.ErrResponseTooLarge] and its text "Response too
	// large: more than N bytes of content". Zero means
	// [agentcore.DefaultMaxResponseBytes] (16 MiB); negative, no cap.
	// The same cap bounds the bytes a compressed body (gzip, which Go's
	// transport asks for and inflates) may inflate to: past them the
	// response ends with the same error, its text "Response too large:
	// more than N bytes inflated from a compressed body".
	MaxResponseBytes int64
	// IdleTimeout bounds each wait for the server, as the proxy client's
	// does: for the response's headers, then at each read of its body (counted only while the stream waits for it, not while
	// the consumer handles an event): a server that sends nothing for
	// that long ends the response as an error, its Err wrapping
	// [agentcore.ErrStreamIdleTimeout]. Zero means
	// [agentcore.DefaultStreamIdleTimeout] (10 minutes); negative, none.
	IdleTimeout time.Duration
}

// getenv reads the Options' environment ([provider.Getenv]).
func (o Options) getenv(name string) string { return provider.Getenv(o.Getenv)(name) }

var (
	arnRegion        = regexp.MustCompile(`^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):`)
	standardEndpoint = regexp.MustCompile(`^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$`)
)

// target is where one request goes: its endpoint (no trailing slash) and
// the region it is signed for; region is empty when the shared config
// profile decides it.
type target struct {
	endpoint, region string
}

// resolveTarget decides a request's endpoint and region as pi-ai does
// (see [Options.Region] and [Options.BaseURL]).
func (o Options) resolveTarget(model agentcore.Model) target {
	configured := o.Region
	if configured == "" {
		configured = o.getenv("AWS_REGION")
	}
	if configured == "" {
		configured = o.getenv("AWS_DEFAULT_REGION")
	}
	ambientProfile := o.getenv("AWS_PROFILE") != ""
	base := o.BaseURL
	if base == "" {
		base = model.BaseURL
	}
	endpointRegion := standardRegion(base)
	explicit := o.BaseURL != "" || endpointRegion == "" || (configured == "" && !ambientProfile)
	var t target
	switch m := arnRegion.FindStringSubmatch(model.ID); {
	case m != nil:
		t.region = m[1]
	case configured != "":
		t.region = configured
	case endpointRegion != "" && explicit:
		t.region = endpointRegion
	case !ambientProfile:
		t.region = "us-east-1"
	}
	if explicit && base != "" {
		t.endpoint = strings.TrimSuffix(base, "/")
	}
	return t
}

// endpointFor is the region's standard Bedrock runtime endpoint.
func endpointFor(region string) string {
	if strings.HasPrefix(region, "cn-") {
		return "https://bedrock-runtime." + region + ".amazonaws.com.cn"
	}
	return "https://bedrock-runtime." + region + ".amazonaws.com"
}

// standardRegion is the region of a standard Bedrock runtime endpoint
// URL, empty for any other URL.
func standardRegion(rawURL string) string {
	if rawURL == "" {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	if m := standardEndpoint.FindStringSubmatch(strings.ToLower(u.Hostname())); m != nil {
		return m[1]
	}
	return ""
}

// modelPath is the request path of model ID id: "/model/" + id escaped as
// the AWS SDK escapes a path label (encodeURIComponent, and !'()*) +
// "/converse-stream".
func modelPath(id string) string {
	var b strings.Builder
	b.WriteString("/model/")
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteString("/converse-stream")
	return b.String()
}

// reservedHeader reports whether the signature or the bearer token owns
// the header key.
func reservedHeader(key string) bool {
	lower := strings.ToLower(key)
	return strings.HasPrefix(lower, "x-amz-") || lower == "authorization" || lower == "host"
}

// cacheRetention is the request's cache retention: the option's, else
// "long" when PI_CACHE_RETENTION says so, else "short".
func (o Options) cacheRetention(so agentcore.StreamOptions) string {
	switch {
	case so.CacheRetention != "":
		return so.CacheRetention
	case o.getenv("PI_CACHE_RETENTION") == "long":
		return "long"
	}
	return "short"
}
