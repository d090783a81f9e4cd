// Records pi-ai 1.6.0's built-in chat models as its own code lists them
// (getBuiltinProviders, then builtinModels().getModels(provider)), each
// with its fields in the order agentcore.Model writes them, as gzipped
// JSON lines: the providers first, then one model a line.
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node catalog.mjs
//
// writes catalog.pi.jsonl.gz next to this file. Fields pi-ai's Model type
// does not declare (the radius provider's lab, enabled, providers and
// free) are left out and counted in the first line.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const all = await import(join(modules, "@earendil-works/pi-ai/dist/providers/all.js"));

const LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];
const FIELDS = ["id", "name", "api", "provider", "baseUrl", "reasoning", "input", "cost", "contextWindow", "maxTokens",
	"headers", "compat", "thinkingLevelMap", "promptCache", "inputLimits", "samplingParams", "samplingParamsByThinkingLevel", "type"];
const IGNORED = ["lab", "enabled", "providers", "free"];

// pick copies the keys of o listed in keys, in that order.
const pick = (o, keys) => {
	const r = {};
	for (const k of keys) if (o[k] !== undefined) r[k] = o[k];
	return r;
};
const sorted = (o) => pick(o, Object.keys(o).sort());

const dropped = {};
function canonical(m) {
	for (const k of Object.keys(m)) {
		if (IGNORED.includes(k)) dropped[k] = (dropped[k] ?? 0) + 1;
		else if (!FIELDS.includes(k)) throw new Error(`${m.provider}/${m.id}: unknown field ${k}`);
	}
	const r = pick(m, FIELDS);
	r.cost = pick(m.cost, ["input", "output", "cacheRead", "cacheWrite", "tiers"]);
	if (m.cost.tiers) r.cost.tiers = m.cost.tiers.map((t) => pick(t, ["inputTokensAbove", "input", "output", "cacheRead", "cacheWrite"]));
	if (m.headers) r.headers = sorted(m.headers);
	if (m.thinkingLevelMap) {
		const rest = Object.keys(m.thinkingLevelMap).filter((k) => !LEVELS.includes(k)).sort();
		r.thinkingLevelMap = pick(m.thinkingLevelMap, [...LEVELS, ...rest]);
	}
	if (m.promptCache) r.promptCache = pick(m.promptCache, ["short", "long"]);
	if (m.inputLimits) {
		r.inputLimits = pick(m.inputLimits, ["maxRequestBytes", "images"]);
		const im = m.inputLimits.images;
		if (im) {
			r.inputLimits.images = pick(im, ["resize", "maxPerMessage", "maxPerRequest"]);
			if (im.resize) r.inputLimits.images.resize = pick(im.resize, ["maxWidth", "maxHeight", "maxBytes", "jpegQuality"]);
		}
	}
	return r;
}

const models = all.builtinModels();
const providers = all.getBuiltinProviders();
const lines = [];
for (const p of providers) for (const m of models.getModels(p)) lines.push(JSON.stringify(canonical(m)));
const head = JSON.stringify({ providers, models: lines.length, dropped });
const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "catalog.pi.jsonl.gz"), gzipSync([head, ...lines].join("\n") + "\n", { level: 9 }));
console.log(head);
