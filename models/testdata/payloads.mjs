// Records the thinking fields of the request pi-ai 1.6.0's providers
// build (its streamSimple, stopped in onPayload) for every catalog model
// of the APIs the provider packages speak, at every thinking level and
// with none, as gzipped JSON lines {provider, id, level, fields} (or
// error, when pi-ai refuses the level):
//
//   NODE_MODULES_DIR=/work/oracle/node_modules node payloads.mjs
//
// writes providers/PKG/testdata/thinking_levels.pi.jsonl.gz for the
// openai, openairesponses, anthropic, google, mistral, bedrock, azure and
// vertex packages. level "" is no level (thinking off, as the agent loop
// passes it). Mistral's fields are given their wire names.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const modules = process.env.NODE_MODULES_DIR ?? "/work/oracle/node_modules";
const dist = join(modules, "@earendil-works/pi-ai/dist");
const all = await import(join(dist, "providers/all.js"));
const here = dirname(fileURLToPath(import.meta.url));

const targets = {
	"openai-completions": { dir: "openai", fields: (p) => pick(p, ["reasoning", "reasoning_effort"]) },
	"openai-responses": { dir: "openairesponses", fields: (p) => pick(p, ["reasoning"]) },
	"anthropic-messages": { dir: "anthropic", fields: (p) => pick(p, ["thinking", "output_config"]) },
	"google-generative-ai": { dir: "google", fields: (p) => pick(p.config ?? {}, ["thinkingConfig"]) },
	"mistral-conversations": {
		dir: "mistral",
		fields: (p) => pick({ prompt_mode: p.promptMode, reasoning_effort: p.reasoningEffort }, ["prompt_mode", "reasoning_effort"]),
	},
	"bedrock-converse-stream": { dir: "bedrock", fields: (p) => pick(p, ["additionalModelRequestFields", "inferenceConfig"]) },
	"azure-openai-responses": {
		dir: "azure",
		fields: (p) => pick(p, ["reasoning"]),
		env: { AZURE_OPENAI_BASE_URL: "https://r.openai.azure.com/openai/v1" },
	},
	"google-vertex": { dir: "vertex", fields: (p) => pick(p.config ?? {}, ["thinkingConfig"]) },
};
const pick = (o, keys) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
const LEVELS = ["", "off", "minimal", "low", "medium", "high", "xhigh", "max"];

async function payload(api, model, level) {
	let captured;
	const context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
	const options = { apiKey: "k", onPayload: (p) => { captured = p; throw new Error("captured"); } };
	if (level) options.reasoning = level;
	try {
		for await (const _ of api.streamSimple(model, context, options)) {}
	} catch (e) {
		return { error: e.message }; // pi-ai refused the level before building a request
	}
	return captured;
}

const models = all.builtinModels();
for (const [apiName, t] of Object.entries(targets)) {
	const api = await import(join(dist, `api/${apiName}.js`));
	Object.assign(process.env, t.env); // what pi-ai needs beside the model
	const lines = [];
	for (const p of all.getBuiltinProviders()) {
		for (const m of models.getModels(p)) {
			if (m.api !== apiName) continue;
			for (const level of LEVELS) {
				const body = await payload(api, m, level);
				if (body === undefined) continue; // pi-ai failed before building the request
				const rec = body.error ? { error: body.error } : { fields: t.fields(body) };
				lines.push(JSON.stringify({ provider: m.provider, id: m.id, level, ...rec }));
			}
		}
	}
	const dir = join(here, "../../providers", t.dir, "testdata");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "thinking_levels.pi.jsonl.gz"), gzipSync(lines.join("\n") + "\n", { level: 9 }));
	console.log(apiName, lines.length);
}
