// Package schema coerces and validates tool-call arguments against a tool's
// JSON Schema as the reference runtime does (pi-ai's validateToolArguments
// over pi-schema): loosely typed arguments are coerced towards the schema
// first, then checked, and a failure is explained with one error per failing
// keyword in the reference's words and order.
//
// # Use
//
// [ValidateToolArguments] is what the agent loop calls for each tool call: it
// compiles the tool's schema with [Compile], which caches compiles by the
// schema's bytes, and returns the coerced arguments or an error whose text is
// the reference's ([ArgumentsError], written by [FormatError]). A
// [Validator] also coerces and checks on its own: [Validator.Parse] for JSON
// text, [Validator.ParseValue] for a parsed value, [Validator.Errors] to
// check without coercing.
//
// # Checking
//
// Schemas compile with github.com/santhosh-tekuri/jsonschema/v5, which
// decides validity, on a copy of the schema adapted to what the reference
// reads (checkerCopy). The coercion passes and the error explanations are
// walked here over the schema, asking the compiled schema about each
// subschema.
package schema
