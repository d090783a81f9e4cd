// Regenerates golden.json from cases.json by asking the reference (pi-ai 1.6.0 over pi-schema):
//   node internal/schema/testdata/oracle.mjs [oracle node_modules dir]
// Each case gets `want` (the coerced arguments as JSON.stringify writes them), or `wantErr` (the errors, path and
// message) and `text` (the whole failure text validateToolArguments throws), or `compileError`.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.argv[2] ?? "/work/oracle/node_modules";
const { compile } = await import(pathToFileURL(join(modules, "@earendil-works/pi-schema/dist/index.js")));
const { formats } = await import(pathToFileURL(join(modules, "@earendil-works/pi-schema/dist/formats/index.js")));
const { validateToolArguments } = await import(pathToFileURL(join(modules, "@earendil-works/pi-ai/dist/utils/validation.js")));

const cases = JSON.parse(readFileSync(join(here, "cases.json"), "utf8"));
const out = [];
for (const c of cases) {
	// argsText carries arguments whose JSON text matters (duplicate keys, literals JSON.parse rounds).
	const args = c.argsText !== undefined ? JSON.parse(c.argsText) : c.args;
	const r = c.argsText !== undefined ? { name: c.name, schema: c.schema, argsText: c.argsText } : { name: c.name, schema: c.schema, args: c.args };
	let validator;
	try {
		validator = compile(c.schema, { formats, coerce: true, unresolvedRefs: "reject" });
	} catch (e) {
		r.compileError = String(e.message);
		out.push(r);
		continue;
	}
	const result = validator.parse(structuredClone(args));
	if (result.ok) {
		r.want = JSON.stringify(result.value);
	} else {
		r.wantErr = result.errors.map((e) => ({ path: e.path, message: e.message }));
		try {
			validateToolArguments({ name: "tool", parameters: c.schema }, { name: "tool", arguments: args });
			r.text = "(no error)";
		} catch (e) {
			r.text = e.message;
		}
	}
	out.push(r);
}
writeFileSync(join(here, "golden.json"), "[\n" + out.map((r) => JSON.stringify(r)).join(",\n") + "\n]\n");
console.log(`${out.length} cases`);
