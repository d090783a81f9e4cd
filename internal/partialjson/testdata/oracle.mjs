// Regenerates golden.json from cases.json with the reference parser (pi-ai's StreamingJsonParser):
//   node internal/partialjson/testdata/oracle.mjs [oracle node_modules dir]
// For every case: the pieces appended, and after each piece the snapshot as JSON.stringify writes it, or null while
// there is no value. The cases are small, so the reference's snapshots never lag.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.argv[2] ?? "/work/oracle/node_modules";
const { StreamingJsonParser } = await import(pathToFileURL(join(modules, "@earendil-works/pi-ai/dist/utils/streaming-json.js")));

const cases = JSON.parse(readFileSync(join(here, "cases.json"), "utf8"));
const out = [];
for (const c of cases) {
	let chunks = c.chunks;
	if (chunks === undefined) {
		chunks = [];
		for (let i = 0; i < c.text.length; i += c.split) chunks.push(c.text.slice(i, i + c.split));
	}
	const parser = new StreamingJsonParser();
	const snapshots = chunks.map((chunk) => {
		parser.append(chunk);
		const v = parser.snapshot();
		return v === undefined ? null : JSON.stringify(v);
	});
	out.push({ name: c.name, chunks, snapshots });
}
writeFileSync(join(here, "golden.json"), JSON.stringify(out, null, 1) + "\n");
