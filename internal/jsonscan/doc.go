// Package jsonscan reads JSON values of known shapes in one pass over their
// bytes, for the decoders of the agentcore package's messages, which must
// return what [encoding/json] returns on the same input.
//
// A [Scanner] accepts only what it can read exactly as encoding/json would:
// well-formed JSON whose strings are valid UTF-8 without lone surrogate
// escapes and whose object keys have no escapes. On anything else it
// fails (see [Scanner.Failed]) without saying why, and its caller decodes
// the input again with encoding/json, whose value or error is the answer.
// A failure is never an error of its own: it only sends the input down
// the slower path.
//
// Numbers read into an integer with [Scanner.Int] are read as JavaScript
// reads them (pi writes JavaScript numbers): any JSON number is accepted,
// truncated toward zero and saturated to the int64 range ([Int64]).
package jsonscan
