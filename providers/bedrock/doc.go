// Package bedrock is an Amazon Bedrock client for agentcore: [StreamFn]
// returns the [agentcore.StreamFn] that puts a model of Bedrock's
// ConverseStream API (Claude, Nova, Llama, gpt-oss, ...) behind an
// [agentcore.Agent]. It behaves as pi-ai 1.6's bedrock-converse-stream
// provider does (with the AWS SDK for JavaScript under it): the same
// request body for a transcript, the same events for a response, the same
// error texts.
//
// It is a module of its own (github.com/pi-go/agentcore/providers/bedrock)
// because the AWS credential chain brings the AWS SDK's configuration
// packages; the root module stays free of them.
//
// # Use
//
//	reg := providers.New(providers.Options{})
//	bedrock.Register(reg, bedrock.Options{})
//	agent := agentcore.New(agentcore.Options{
//		Model: agentcore.Model{ID: "anthropic.claude-sonnet-4-5-20250929-v1:0", Name: "Claude Sonnet 4.5",
//			Provider: "amazon-bedrock", API: bedrock.API, Reasoning: true, MaxTokens: 64000},
//		StreamFn: reg.Stream,
//	})
//
// [Register] adds the stream function to a [providers.Registry] under
// [API], "bedrock-converse-stream"; StreamFn alone serves an agent that
// only talks to Bedrock.
//
// # Credentials and region
//
// A request carries a Bedrock API key as a bearer token when there is
// one: [Options.BearerToken], else the request's
// [agentcore.StreamOptions.APIKey], else AWS_BEARER_TOKEN_BEDROCK. Without
// one it is signed (SigV4, service "bedrock") with [Options.Credentials],
// else the environment's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN, else the AWS SDK's default credential chain
// (github.com/aws/aws-sdk-go-v2/config: shared config and credentials
// files and their profiles, SSO, web identity, container and instance
// roles), loaded once per profile and cached. A profile named in
// [Options.Profile] wins over the environment's keys, as pi-ai lets a
// configured profile win; AWS_PROFILE names the chain's profile otherwise.
// AWS_BEDROCK_SKIP_AUTH=1 signs with dummy keys, for proxies that need
// none.
//
// The region is that of an inference-profile ARN model ID, else
// [Options.Region], AWS_REGION or AWS_DEFAULT_REGION, else that of a
// standard endpoint in the model's BaseURL, else the AWS_PROFILE
// profile's, else us-east-1. Requests go to [Options.BaseURL], else to the
// model's BaseURL (a VPC endpoint or a proxy; a standard endpoint only
// when no region or profile is configured), else to
// https://bedrock-runtime.REGION.amazonaws.com, at
// /model/ID/converse-stream.
//
// # The request
//
// The transcript is the only input. Its system messages are collapsed
// into the system prompt ([agentcore.SystemPromptText]); the tools are
// [agentcore.CurrentTools], as tool specs. User text and images (JPEG,
// PNG, GIF, WebP), assistant text, tool calls and thinking, and tool
// results (each turn's results in one user message, "<empty>" for blank
// content) are replayed as pi-ai replays them: Claude gets its signed
// reasoning back (unsigned thinking as text) and the images of error
// results after the results; other models get reasoning without
// signatures; encrypted reasoning goes back as its bytes. Claude 3.5
// Haiku, 3.7 Sonnet, 4.x and 5 get cache points after the system prompt
// and the last user message ([agentcore.StreamOptions.CacheRetention],
// else PI_CACHE_RETENTION, else "short"; "long" asks for an hour;
// AWS_BEDROCK_FORCE_CACHE=1 forces them for any model). maxTokens is
// [agentcore.StreamOptions.MaxTokens], else the model's, fitted into its
// context window; a thinking level becomes Claude's thinking (adaptive
// with an effort for Opus 4.6, Sonnet 4.6 and later, else a token budget
// that max tokens grow by), gpt-oss's reasoning_effort or GPT's
// reasoning.effort, as additionalModelRequestFields; Claude's and GPT's
// efforts are the model's ThinkingLevelMap value for the level where it
// has one (but xhigh for the Claude models that take it). Options.Headers and
// the request's headers are sent, except Authorization, Host and x-amz-*.
// [agentcore.StreamOptions.OnPayload] sees the body as it goes on the
// wire; a replacement is signed as sent.
//
// # The response
//
// The body is an AWS event stream (application/vnd.amazon.eventstream):
// binary messages of a prelude (total length, headers length, CRC32),
// headers, a JSON payload and a CRC32 of the whole. This package frames
// it itself, checking both checksums and AWS's size limits (16 MiB of
// payload, 128 KiB of headers) before reading a message's bytes. The
// start event comes with messageStart; text and reasoning blocks open
// with their first delta, tool calls with contentBlockStart, and each
// ends with its contentBlockStop, tool-call arguments showing as partial
// values while they stream. messageStop gives the stop reason (end_turn
// and stop_sequence: stop; max_tokens and model_context_window_exceeded:
// length; tool_use; any other: an error "Provider stopped with: REASON"),
// metadata the usage and its cost at the model's rates (its price tiers
// included; a write cached for an hour at twice the input rate).
// [agentcore.StreamOptions.OnProviderStreamEvent] sees each event as
// {"TYPE": payload}.
//
// # Errors
//
// A refusal is reported as the AWS SDK and pi-ai word it: the exception
// named by x-amzn-errortype (or the body's code or __type) and the
// body's message, known exceptions with pi-ai's prefix: "Validation
// error: ...", "Throttling error: ...", "Internal server error: ...",
// "Service unavailable: ...", "AccessDeniedException: ...". An exception
// in the event stream reads the same; an error message reads its
// :error-message. A stream that ends inside a message fails with
// [ErrTruncated]'s text, one whose checksum does not match with the
// SDK's words, one without messageStop with [NoStopReasonText]; a
// connection that breaks off mid-body, kept alive or not, with
// [AbortedText], "aborted", as Node's HTTP client words it for pi-ai (the
// network's error is the failure's cause). A request that got no response
// reads the network's error. Texts mentioning the account's data
// retention mode get AWS's documentation link.
//
// # Where Go differs from pi-ai
//
//   - Retries: a refusal is retried only as
//     [agentcore.StreamOptions.MaxRetries] asks (none by default), where
//     the AWS SDK makes up to 3 attempts of a throttled or failed request.
//   - OnPayload sees the wire body, without the model ID (it travels in
//     the URL); pi-ai's hook sees the SDK's command input, modelId
//     included.
//   - A failed message carries no diagnostics (pi-ai appends the request
//     ID and error code as a bedrock_response_failure diagnostic).
//   - A tool's ConstrainedSampling (pi-ai's strict tool sampling and its
//     retry without it) is not read.
//   - Thinking level off turns thinking off; pi-ai's streamSimple takes
//     "off" as a level to think at (a null budget for older Claude
//     models). No level behaves the same in both.
//   - A refused connection reads in Go's words ("dial tcp ...: connect:
//     connection refused" for Node's "connect ECONNREFUSED ..."), and a
//     refusal whose body is no JSON approximates V8's parser message.
//
// # Hostile servers
//
// As for every provider of the repository: a redirect to another origin
// is refused before the request (its token or signature and the
// transcript) goes there; [Options.MaxResponseBytes] caps the content a
// response may build and [Options.IdleTimeout] the wait for the server;
// token counts are clamped; error texts quote at most 4,000 characters of
// what the server sent.
//
// # Why not the AWS SDK's bedrockruntime
//
// Only the credential chain (github.com/aws/aws-sdk-go-v2/config) and the
// SigV4 signer come from the AWS SDK. The bedrockruntime client would add
// the service's generated code and its own event-stream reader, which
// costs about three times the CPU of this package's on a coding agent's
// turn and, over loopback, loses its connection mid-stream on many reads
// (aws/aws-sdk-go-v2#1825); BenchmarkTurn compares the three readers
// (this package, the SDK, a minimal correct reader) and BENCHMARKS.md
// has the figures. The framing is one small file here, fuzzed.
package bedrock
