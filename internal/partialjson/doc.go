// Package partialjson reads JSON text that arrives in pieces (streamed
// tool-call arguments) and shows, at any point, the value of the text read
// so far, as JSON text.
//
// It follows the rules of pi-ai's StreamingJsonParser for incomplete and
// malformed text:
//
//   - an unterminated string shows the characters read so far; an
//     unterminated escape is held back until it completes;
//   - an unterminated array or object shows the elements and members read
//     so far; a member whose key or value has not started is left out;
//   - an unterminated literal shows once it is a prefix of true, false or
//     null; an unterminated number shows when its digits so far form a
//     number (an exponent without digits is ignored);
//   - raw control characters in strings are kept, an invalid escape such as
//     \d stays literal text, missing commas and colons are tolerated, values
//     in invalid positions and unknown words are dropped, a stray closer is
//     ignored, and text after the root value is ignored.
//
// The parser never fails and never panics. Its output is always valid JSON:
// the value is re-encoded as it is read (control characters escaped, numbers
// too large for a float64 written as null, as JSON.stringify writes
// Infinity), so the text shown is normalized rather than a copy of the input.
// Duplicate keys are kept in the output; a decoder takes the last one, which
// is the value the reference keeps.
//
// # Tool-call arguments
//
// An [ArgumentsStream] is the arguments of one streaming tool call, as
// pi-ai's ToolCallArgumentsStream keeps them: a [Parser] previews them
// while they stream, and [Arguments] parses the complete text strictly
// when the call ends (repairing what models get wrong inside strings, see
// [Repair]), so that arguments whose JSON never closed are an error, not
// the last preview. The proxy client and providers/openai share them.
//
// # Cost
//
// [Parser.Append] reads each byte once. A snapshot copies the value
// shown so far, so [Parser.Snapshot] rations fresh copies: each Append earns
// copy credit (a constant plus a multiple of its length), and Snapshot
// returns the previous snapshot while a fresh one would cost more than the
// credit. Total work and allocation stay linear in the input; a large value
// streamed in many small pieces shows a preview that lags slightly behind
// the text. [Parser.Value] always builds a fresh copy.
package partialjson
