// Package jsondec decodes the JSON documents of a stream (the data of its
// server-sent events) one at a time, each exactly as [json.Unmarshal]
// decodes it: the same value, the same error.
//
// json.Unmarshal allocates its decoder state for every document, which over
// a streamed response of thousands of small events is most of what reading
// it allocates. A [Decoder] keeps one [json.Decoder] for the stream, feeds
// it each document and checks that it read exactly that document; anything
// else (a syntax error, text after the document) is left to json.Unmarshal,
// whose answer it returns, and the next document starts on a new decoder.
//
// The providers and the proxy client decode each event with one Decoder per
// response, on the goroutine that reads it.
package jsondec
