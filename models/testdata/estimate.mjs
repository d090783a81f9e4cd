// Records what pi-ai 1.6.0's estimateContextTokens makes of every prefix
// of transcript.json and of three variants of it: usage zeroed, a stale
// usage (a message inserted with a later timestamp before the assistant
// answers), and usage counted by parts with no total.
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node estimate.mjs > estimate.pi.json
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const e = await import(join(modules, "@earendil-works/pi-ai/dist/utils/estimate.js"));
const here = dirname(fileURLToPath(import.meta.url));
const t = JSON.parse(readFileSync(join(here, "transcript.json"), "utf8"));

const withUsage = (f) => t.map((m) => (m.role === "assistant" ? { ...m, usage: f(m.usage) } : m));
const variants = {
	asIs: t,
	noUsage: withUsage((u) => ({ ...u, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 })),
	stale: t.map((m, i) => (i === 5 ? { ...m, timestamp: 100 } : m)),
	parts: withUsage((u) => ({ ...u, input: 1000, output: 20, cacheRead: 300, cacheWrite: 4, totalTokens: 0 })),
};
const cases = [];
for (const [variant, messages] of Object.entries(variants)) {
	for (let n = 0; n <= messages.length; n++) {
		const r = e.estimateContextTokens(messages.slice(0, n));
		cases.push({ variant, n, ...r, lastUsageIndex: r.lastUsageIndex ?? -1 });
	}
}
const perMessage = t.map((m) => e.estimateMessageTokens(m));
console.log(JSON.stringify({ variants, perMessage, cases }));
