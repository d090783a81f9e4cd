// Package providertest holds the tests and test helpers every provider
// module shares (providers/openai, providers/anthropic, providers/google),
// so that each
// checks the same behaviour the same way and keeps only what differs: its
// wire format, its recordings and its error texts.
//
// # Targets
//
// A [Target] describes a provider under test: its stream function for a
// test server, the model and key its recordings of pi-ai were made with,
// and how its error texts are normalized. Each provider's tests build one
// from their testdata ([StreamCases], [ReadTestdata]) and hand it to the
// shared tests.
//
// # Request options
//
// [RequestOptions] checks that a provider honors the request options of
// [agentcore.StreamOptions]; [Recorder] is the test server those checks
// record requests with, also for a provider's own checks.
//
// # Reference recordings
//
// A provider's testdata/stream holds responses (NAME.sse and the like,
// listed in cases.json) and what pi-ai made of the same bytes
// (NAME.pi.json), recorded by this directory's oracle/record.mjs.
// [Target.RecordedResponses], [Target.Aborts] and [Target.CutStreams]
// replay them ([Target.Reference] runs the three) and compare every
// event, the partial arguments at every tool-call delta, and the final
// message ([Target.CompareWithReference]). [Target.Refusals] compares the error
// texts of the refusal bodies of testdata/stream/refusals.pi.json.
// [Target.FullURLRequests] replays the request cases of a provider whose
// recordings keep the whole URL (Azure, Vertex, Mistral: the endpoint is
// what they add), with each case's key and environment, and compares the
// URL, headers, body and message, or the error of a case pi-ai failed.
// [GeminiErrorText], [GeminiToolCallID] and [IsJavaScriptParseError]
// normalize what differs between JavaScript and Go in the Gemini codec's
// and others' texts; [Gemini] completes a Target for a Gemini codec with
// them and the events of [GeminiTextEvent]. [Quote] and [Truncated] build
// test bodies and their error texts; [NoEnv] keeps the machine's
// environment out.
//
// # Servers and streams
//
// [Serve], [ServeBody] and [HangingServer] start test servers closed with
// the test; [HiRequest], [Collect] and [Target.Run] stream one request and
// gather its events. [Tools] are the two tools of the agent runs.
// [Target.OpenRouterCost] checks the cost OpenRouter bills.
// [Target.FuzzStream] fuzzes a stream function with response bodies, which
// [BodyClient] serves without a network; [ReaderClient] serves a body
// generated as it is read, [StallClient] one that stalls;
// [Target.BenchmarkDecode] times one body the same way. [RequestCases]
// reads a provider's request cases (testdata/request/cases.json), each
// with its model, options and transcript.
//
// # Hostile servers
//
// [Hostile] checks a provider against servers that try to do it harm:
// redirects to another origin ([Redirects], which the proxy client's test
// shares), a response far past the content cap (its peak heap measured),
// MaxResponseBytes and IdleTimeout (with testing/synctest). [Target.Usage]
// checks the usage a provider makes of out-of-range token counts.
package providertest
