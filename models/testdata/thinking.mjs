// Records pi-ai 1.6.0's getSupportedThinkingLevels and clampThinkingLevel
// for every catalog chat model, each level and one level it does not
// know, as gzipped JSON lines {provider, id, supported, clamp} to
// thinking.pi.jsonl.gz next to this file:
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node thinking.mjs
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const all = await import(join(modules, "@earendil-works/pi-ai/dist/providers/all.js"));
const { getSupportedThinkingLevels, clampThinkingLevel } = await import(join(modules, "@earendil-works/pi-ai/dist/models.js"));

const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max", "turbo"];
const models = all.builtinModels();
const lines = [];
for (const p of all.getBuiltinProviders()) {
	for (const m of models.getModels(p)) {
		const clamp = Object.fromEntries(LEVELS.map((l) => [l, clampThinkingLevel(m, l)]));
		lines.push(JSON.stringify({ provider: m.provider, id: m.id, supported: getSupportedThinkingLevels(m), clamp }));
	}
}
const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "thinking.pi.jsonl.gz"), gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(lines.length, "models");
