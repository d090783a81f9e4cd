// Records what pi-ai's stream does with a provider's fixtures, so that the Go tests compare
// against the reference rather than against themselves:
//
//   node internal/provider/providertest/oracle/record.mjs PROVIDER [TESTDATA_DIR [NODE_MODULES_DIR]]
//
// PROVIDER is a key of `providers` below; TESTDATA_DIR defaults to providers/PROVIDER/testdata,
// NODE_MODULES_DIR to the oracle's, /work/oracle/node_modules. The openai recordings were made
// with pi-ai 1.5.2, the anthropic and google ones with 1.6.0; 1.6.0 reproduces both.
//
// For every case of stream/cases.json it serves the recorded body over HTTP and writes
// stream/NAME.pi.json: the events pi emitted (with the partial tool-call arguments at every
// toolcall_delta) and the final message. Then it records the failures that have no body. For
// every case of request/cases.json it streams the case's transcript (request/transcript.json
// unless the case names another) against a server that answers with the provider's okBody and
// writes request/NAME.pi.json: the JSON body pi sent or, for a provider with keptHeaders, the
// request's path and query, the body, those request headers and the message pi built from the
// answer. For every body of
// stream/refusals.json, when the provider has one, it writes the error texts to
// stream/refusals.pi.json.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createTCPServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// What differs between the providers: pi-ai's API module, the key and the API root under a
// server's address the recordings use, how many events of stream/text.sse come up to the first
// text delta, the body the request cases are answered with, and the request headers compared
// with the Go provider's (the SDK's own, x-stainless-* and user-agent, are not).
const providers = {
	openai: { api: "openai-completions", apiKey: "sk-test", root: "/v1", headEvents: 2, okBody: "text.sse" },
	openairesponses: {
		api: "openai-responses",
		apiKey: "sk-test",
		root: "/v1",
		headEvents: 5,
		okBody: "reasoning.sse",
		keptHeaders: ["accept", "authorization", "content-type", "session-id", "x-client-request-id", "x-session-id", "x-model-header", "x-request-header"],
	},
	anthropic: {
		api: "anthropic-messages",
		apiKey: "sk-ant-test",
		root: "",
		headEvents: 4,
		okBody: "thinking.sse",
		keptHeaders: [
			"accept",
			"anthropic-beta",
			"anthropic-dangerous-direct-browser-access",
			"anthropic-version",
			"content-type",
			"x-api-key",
			"x-model-header",
			"x-request-header",
			"x-session-affinity",
			"x-session-id",
		],
	},
	google: {
		api: "google-generative-ai",
		apiKey: "test-gemini-key",
		root: "/v1beta",
		headEvents: 1,
		okBody: "thinking.sse",
		keptHeaders: ["content-type", "x-goog-api-key", "x-model-header", "x-request-header"],
	},
};

const here = dirname(fileURLToPath(import.meta.url));
const [name, dirArg, modules = "/work/oracle/node_modules"] = process.argv.slice(2);
const provider = providers[name];
if (!provider) throw new Error(`usage: node record.mjs ${Object.keys(providers).join("|")} [TESTDATA_DIR [NODE_MODULES_DIR]]`);
const dir = dirArg ?? join(here, "../../../../providers", name, "testdata");
const { streamSimple } = await import(pathToFileURL(join(modules, `@earendil-works/pi-ai/dist/api/${provider.api}.js`)));

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// serve starts a server answering every request with (status, contentType, headers, body) and
// remembering the last request body and headers.
async function serve(status, contentType, body, headers = {}) {
	const seen = { body: undefined, headers: undefined, url: undefined };
	const server = createServer((req, res) => {
		let text = "";
		req.on("data", (c) => (text += c));
		req.on("end", () => {
			seen.body = text;
			seen.headers = req.headers;
			seen.url = req.url;
			res.writeHead(status, { "content-type": contentType, ...headers });
			res.end(body);
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const origin = `http://127.0.0.1:${server.address().port}`;
	// Requests keep their path but go to the local server, whatever the model's baseUrl.
	const fetchLocal = (url, init) => {
		const u = new URL(typeof url === "string" ? url : url.url);
		return fetch(origin + u.pathname + u.search, init);
	};
	return { seen, fetchLocal, close: () => new Promise((r) => server.close(r)) };
}

function record(ev) {
	const out = { type: ev.type };
	if (ev.contentIndex !== undefined) out.contentIndex = ev.contentIndex;
	if (ev.delta !== undefined) out.delta = ev.delta;
	if (ev.content !== undefined) out.content = ev.content;
	if (ev.toolCall !== undefined) out.toolCall = clone(ev.toolCall);
	if (ev.type === "toolcall_delta") out.partialArguments = clone(ev.partial.content[ev.contentIndex].arguments);
	return out;
}

function finalMessage(msg) {
	const m = clone(msg);
	delete m.timestamp;
	delete m.durationMs;
	return m;
}

const streamCases = JSON.parse(readFileSync(join(dir, "stream/cases.json"), "utf8"));

// recordStream streams the cases' model at baseUrl with the one-message context and
// options, calling each after every event (it may abort), and writes stream/NAME.pi.json.
async function recordStream(name, baseUrl, options, each = () => {}) {
	const model = { ...streamCases.model, baseUrl };
	const context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
	const events = [];
	let message;
	for await (const ev of streamSimple(model, context, { apiKey: provider.apiKey, ...options })) {
		if (ev.type === "done") message = finalMessage(ev.message);
		else if (ev.type === "error") message = finalMessage(ev.error);
		events.push(record(ev));
		each(ev);
	}
	writeFileSync(join(dir, "stream", `${name}.pi.json`), `${JSON.stringify({ events, message }, null, 2)}\n`);
}

for (const c of streamCases.cases) {
	const body = readFileSync(join(dir, "stream", c.body));
	const srv = await serve(c.status, c.contentType ?? "text/event-stream", body, c.headers);
	await recordStream(c.name, `http://127.0.0.1${provider.root}`, { fetch: srv.fetchLocal });
	await srv.close();
}

// Failures without a recorded body: an abort before the response, an abort after the first
// text delta (the server then holds the stream open), and a refused connection.
async function hanging(headFirst) {
	const sockets = new Set();
	const server = createServer((req, res) => {
		req.resume();
		if (!headFirst) return;
		res.writeHead(200, { "content-type": "text/event-stream" });
		const events = readFileSync(join(dir, "stream/text.sse"), "utf8").split("\n\n");
		res.write(events.slice(0, provider.headEvents).join("\n\n") + "\n\n");
	});
	server.on("connection", (s) => sockets.add(s));
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const close = () => {
		for (const s of sockets) s.destroy();
		return new Promise((r) => server.close(r));
	};
	return { url: `http://127.0.0.1:${server.address().port}${provider.root}`, close };
}
async function failure(name, baseUrl, abortAfter) {
	const controller = new AbortController();
	if (abortAfter === "time") setTimeout(() => controller.abort(), 100);
	await recordStream(name, baseUrl, { signal: controller.signal }, (ev) => {
		if (abortAfter === "text_delta" && ev.type === "text_delta") controller.abort();
	});
}
{
	const before = await hanging(false);
	await failure("abort-before-response", before.url, "time");
	await before.close();
	const mid = await hanging(true);
	await failure("abort-mid-stream", mid.url, "text_delta");
	await mid.close();
	const refused = await hanging(false);
	await refused.close();
	await failure("connection-refused", refused.url, "none");
}

// Bodies cut off in the middle of a chunk, after the head of stream/text.sse and the start of
// one more event (or none: cut-close-between-events): on a response sent with "Connection:
// close" (cut-close), which Node's fetch reads as the end of the body, and on a connection kept
// alive (cut-keepalive). providertest's CutStreams serves the same bytes.
async function cut(name, close, tail) {
	const head = readFileSync(join(dir, "stream/text.sse"), "utf8").split("\n\n").slice(0, provider.headEvents).join("\n\n") + "\n\n";
	const server = createTCPServer((socket) => {
		socket.once("data", () => {
			const connection = close ? "Connection: close\r\n" : "";
			socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n${connection}Transfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(head).toString(16)}\r\n${head}\r\nff\r\n${tail}`);
			socket.end();
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	await recordStream(name, `http://127.0.0.1:${server.address().port}${provider.root}`, {});
	await new Promise((r) => server.close(r));
}
await cut("cut-close", true, 'data: {"');
await cut("cut-close-between-events", true, "");
await cut("cut-keepalive", false, 'data: {"');

// Refusal texts: for every body of stream/refusals.json, when there is one, the errorMessage of
// the case's status and of a 429 whose retry-after (120s) exceeds maxRetryDelayMs (60s), written
// to stream/refusals.pi.json.
const refusalsFile = join(dir, "stream/refusals.json");
if (existsSync(refusalsFile)) {
	const out = [];
	for (const c of JSON.parse(readFileSync(refusalsFile, "utf8")).cases) {
		const texts = {};
		for (const [key, status, headers, options] of [
			["text", c.status, {}, {}],
			["delayTooLong", 429, { "retry-after": "120" }, { maxRetries: 1, maxRetryDelayMs: 60000 }],
		]) {
			const srv = await serve(status, "application/json", c.body, headers);
			const model = { ...streamCases.model, baseUrl: `http://127.0.0.1${provider.root}` };
			const context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
			for await (const ev of streamSimple(model, context, { apiKey: provider.apiKey, fetch: srv.fetchLocal, ...options })) {
				if (ev.type === "error") texts[key] = ev.error.errorMessage;
			}
			await srv.close();
		}
		out.push({ ...c, ...texts });
	}
	writeFileSync(join(dir, "stream/refusals.pi.json"), `${JSON.stringify({ cases: out }, null, 2)}\n`);
}

const requestCases = JSON.parse(readFileSync(join(dir, "request/cases.json"), "utf8"));
const readTranscript = (name) => JSON.parse(readFileSync(join(dir, "request", name ?? "transcript.json"), "utf8"));
const okBody = readFileSync(join(dir, "stream", provider.okBody));
for (const c of requestCases.cases) {
	const srv = await serve(200, "text/event-stream", okBody);
	const opts = { apiKey: provider.apiKey, fetch: srv.fetchLocal, ...c.options };
	let message;
	for await (const ev of streamSimple(c.model, { messages: readTranscript(c.transcript) }, opts)) {
		if (ev.type === "error") throw new Error(`${c.name}: ${ev.error.errorMessage}`);
		if (ev.type === "done") message = finalMessage(ev.message);
	}
	await srv.close();
	const body = JSON.parse(srv.seen.body);
	let out = body;
	if (provider.keptHeaders) {
		const headers = {};
		for (const h of provider.keptHeaders) if (srv.seen.headers[h] !== undefined) headers[h] = srv.seen.headers[h];
		out = { url: srv.seen.url, headers, body, message };
	}
	writeFileSync(join(dir, "request", `${c.name}.pi.json`), `${JSON.stringify(out, null, 2)}\n`);
}
