// Records pi-ai 1.6.0's calculateCost on catalog models and usages: every
// model with price tiers, just below and just above each threshold, and
// every seventh other model on two usages of different sizes, half of
// them with 1h cache writes. Writes gzipped JSON lines of
// {provider, id, usage, cost} to cost.pi.jsonl.gz next to this file:
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node cost.mjs
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const all = await import(join(modules, "@earendil-works/pi-ai/dist/providers/all.js"));
const { calculateCost } = await import(join(modules, "@earendil-works/pi-ai/dist/models.js"));

let seed = 42;
const rand = (n) => {
	seed = (seed * 1103515245 + 12345) % 2147483648;
	return seed % n;
};
// usage splits about `total` input-side tokens into input, cache reads and
// cache writes, with some output and, when long is set, 1h cache writes.
const usage = (total, long) => {
	const cacheRead = rand(Math.floor(total / 2) + 1);
	const cacheWrite = rand(Math.floor((total - cacheRead) / 3) + 1);
	const input = total - cacheRead - cacheWrite;
	const output = 1 + rand(20000);
	const u = { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
	if (long) u.cacheWrite1h = rand(cacheWrite + 1);
	return u;
};

const models = all.builtinModels();
const lines = [];
const record = (m, u) => {
	const cost = calculateCost(m, structuredClone(u));
	lines.push(JSON.stringify({ provider: m.provider, id: m.id, usage: u, cost }));
};
let other = 0;
for (const p of all.getBuiltinProviders()) {
	for (const m of models.getModels(p)) {
		const tiers = m.cost.tiers ?? [];
		for (const t of tiers) {
			record(m, usage(t.inputTokensAbove, lines.length % 2 === 0));
			record(m, usage(t.inputTokensAbove + 1 + rand(50000), lines.length % 2 === 0));
		}
		if (tiers.length === 0 && other++ % 7 === 0) {
			record(m, usage(rand(4000), false));
			record(m, usage(rand(300000), true));
		}
	}
}
const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "cost.pi.jsonl.gz"), gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(lines.length, "pairs");
