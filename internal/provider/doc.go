// Package provider holds what the stream functions that speak HTTP share
// (the providers' modules and the proxy client): a failed request as the
// message's text and the typed [agentcore.ProviderError] behind it, and
// the request itself with the hooks of [agentcore.StreamOptions].
//
// A provider builds its body, sets its headers over the identity's with
// [Layer], then sends it with [Send], which passes the body through
// [Payload] (OnPayload) and posts it with [Do] (Timeout, MaxRetries,
// OnResponse), which answers the response to stream or the refusal to
// describe. Everything runs on the caller's
// goroutine.
//
// Whatever MaxRetries says, [Do] sends a request again when it failed on a
// reused keep-alive connection before any byte of a response arrived: the
// server closed the idle connection as the request went out (llama-server
// does), which Go's transport retries only for idempotent requests. Each
// such failure drops its connection, so the request goes out again on a
// fresh one; a failure on a fresh connection is final.
//
// # Stream functions
//
// A provider's StreamFn is [StreamFn] with a constructor of its
// [Exchange]: each call's [Call] (model, request, options, writer and the
// pending [Message]) is made here and [Run] drives the exchange's Send,
// Read and End. [Compat] and [Flag] read a model's compat settings.
//
// # The skeleton
//
// A provider keeps its wire types, its request builder and its event
// mapping; the rest is here, and every provider names the same roles
// alike:
//
//   - call is the provider's [Exchange]: Send builds the request and
//     posts it with [Send] (describing a refusal with its refusal
//     function), Read is [Read] of the body with the provider's
//     [ReadRules], End judges the message once the body is read.
//   - decoder is the provider's [Decoder]: its Event maps one
//     server-sent event onto a [Builder].
//   - [Read] is the one read loop: it classifies a failed read once
//     ([ReadRules.Classify]): the end of the body, an abort, a line too
//     long, a limit, else a connection cut mid-body ([Terminated], Node's
//     "terminated: "). A body sent with "Connection: close" that ends
//     early ends as any body does ([Run] reads it so), as Node's fetch
//     reads it for pi-ai.
//   - [Builder] is the one block builder: it opens, grows and ends text,
//     thinking and tool-call blocks (arguments through
//     [partialjson.ArgumentsStream]), charges their content to the
//     response's budget (MaxResponseBytes), and its Stopped is the one
//     "consumer stopped" flag (the stream writer's).
//   - [*Failure] is the one failure, nil meaning none, everywhere.
package provider
