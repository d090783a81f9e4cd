// Records what pi-ai sends where record.mjs cannot ask it: requests through an API module's
// `stream` entry (options streamSimple does not pass on, such as the Responses API's serviceTier
// and reasoningSummary) and transcripts replayed into another API than the one that made them:
//
//   node internal/provider/providertest/oracle/record-crossapi.mjs [TESTDATA_DIR [NODE_MODULES_DIR]]
//
// TESTDATA_DIR defaults to providers/openairesponses/testdata, NODE_MODULES_DIR to the oracle's,
// /work/oracle/node_modules. For every case of crossapi/cases.json it streams the case's
// transcript (under request/ or crossapi/) to the case's API module, through `entry` ("stream"
// or "streamSimple") with the case's options, against a server that answers with the case's
// answer (a body under the testdata), and writes crossapi/NAME.pi.json: the JSON body pi sent and
// the message it built from the answer.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [dirArg, modules = "/work/oracle/node_modules"] = process.argv.slice(2);
const dir = dirArg ?? join(here, "../../../../providers/openairesponses/testdata");
const api = (name) => import(pathToFileURL(join(modules, `@earendil-works/pi-ai/dist/api/${name}.js`)));

// answer starts a server answering every request with body as an event stream and remembering
// the last request body.
async function answer(body) {
	const seen = {};
	const server = createServer((req, res) => {
		let text = "";
		req.on("data", (c) => (text += c));
		req.on("end", () => {
			seen.body = text;
			res.writeHead(200, { "content-type": "text/event-stream" });
			res.end(body);
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const fetchLocal = (url, init) => {
		const u = new URL(typeof url === "string" ? url : url.url);
		return fetch(origin + u.pathname + u.search, init);
	};
	return { seen, fetchLocal, close: () => new Promise((r) => server.close(r)) };
}

const transcript = (name) => {
	const path = [join(dir, "crossapi", name), join(dir, "request", name)].find(existsSync);
	return JSON.parse(readFileSync(path, "utf8"));
};

for (const c of JSON.parse(readFileSync(join(dir, "crossapi/cases.json"), "utf8")).cases) {
	const mod = await api(c.model.api);
	const srv = await answer(readFileSync(join(dir, c.answer)));
	let message;
	for await (const ev of mod[c.entry](c.model, { messages: transcript(c.transcript) }, { apiKey: "sk-test", fetch: srv.fetchLocal, ...c.options })) {
		if (ev.type === "error") throw new Error(`${c.name}: ${ev.error.errorMessage}`);
		if (ev.type === "done") {
			message = JSON.parse(JSON.stringify(ev.message));
			delete message.timestamp;
			delete message.durationMs;
		}
	}
	await srv.close();
	const out = { body: JSON.parse(srv.seen.body), message };
	writeFileSync(join(dir, "crossapi", `${c.name}.pi.json`), `${JSON.stringify(out, null, 2)}\n`);
}
