// Writes what pi-ai 1.6.0's estimator makes of transcript.json, with the usage of its
// assistant messages and with their usage zeroed:
//
//   node oracle.mjs /path/to/oracle/node_modules transcript.json > estimate.pi.json
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [modules, file] = process.argv.slice(2);
const e = await import(join(modules, "@earendil-works/pi-ai/dist/utils/estimate.js"));
const t = JSON.parse(readFileSync(file, "utf8"));
const noUsage = t.map((m) => (m.role === "assistant" ? { ...m, usage: { ...m.usage, totalTokens: 0, input: 0, output: 0 } } : m));
const out = {
	withUsage: e.estimateContextTokens(t).tokens,
	withoutUsage: e.estimateContextTokens(noUsage).tokens,
	perMessage: t.map((m) => e.estimateMessageTokens(m)),
};
console.log(JSON.stringify(out, null, 2));
