// Package sse reads and writes server-sent event streams.
//
// # Reading
//
// A [Reader] splits a stream into lines, each ending in LF, CRLF or CR
// (a byte order mark that starts the stream is dropped, as the
// specification asks and JavaScript's decoders do), and reads them in one
// of two framings; a reader is used with one of them:
//
//   - [Reader.Next] returns events as the WHATWG specification dispatches
//     them: lines starting with a colon are comments, a field is the text
//     before the first colon and its value the text after it (one leading
//     space dropped), "event" names the event, "data" lines are joined with
//     LF, and a blank line dispatches an event that has data. Provider
//     streams (Chat Completions, Anthropic's Messages) are read this way.
//   - [Reader.NextData] follows pi's proxy client: every line that starts
//     with "data: " carries one event on its own, its payload the rest of the
//     line with surrounding white space trimmed; every other line (blank
//     lines, comments, "event:", "data:" without a space) is skipped.
//
// In both, the last line counts when the stream ends cleanly without a line
// break, and an event still pending then is dispatched (servers sometimes
// omit the final blank line). A line, or an event's data, longer than the
// reader's limit ends the stream with [ErrLineTooLong], so that a hostile or
// broken server costs bounded memory.
//
// # Writing
//
// A [Writer] writes one "data: " line per event, as pi's proxy server does.
package sse
