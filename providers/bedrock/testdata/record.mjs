// Records what pi-ai 1.6.0's Bedrock provider (bedrock-converse-stream, on
// @aws-sdk/client-bedrock-runtime) does with this directory's cases, so that the Go tests compare
// against the reference rather than against themselves:
//
//   node providers/bedrock/testdata/record.mjs [NODE_MODULES_DIR]
//
// NODE_MODULES_DIR defaults to /work/oracle/node_modules.
//
// stream/cases.json lists the responses. A case with "frames" is an AWS event stream this script
// encodes (prelude: total length, headers length, prelude CRC32; headers; payload; message
// CRC32) and writes to stream/NAME.bin, its body; "cut" drops that many bytes from its end and
// "corrupt" flips a bit of frame N's prelude or message CRC. A case with "text" is an HTTP
// refusal whose body is written to stream/NAME.txt. For every case a local server answers pi-ai's
// SDK client with the body (the model's baseUrl is the server, the key a bearer token), and
// stream/NAME.pi.json gets the events pi emitted (with the partial tool-call arguments at every
// toolcall_delta) and the final message. Then the failures without a body: an abort before the
// response, an abort after the first text delta (the server then holds the stream open), and a
// refused connection, and three bodies cut off by the network (see cut below).
// stream/text-head.bin is the text case up to its first text delta.
//
// For every case of request/cases.json it streams the case's transcript against a server that
// answers with stream/text.bin and writes request/NAME.pi.json: the request's path, its
// content type and authorization, and the JSON body the SDK sent.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createTCPServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { crc32 } from "node:zlib";

const dir = dirname(fileURLToPath(import.meta.url));
const [modules = "/work/oracle/node_modules"] = process.argv.slice(2);
const { streamSimple } = await import(pathToFileURL(join(modules, "@earendil-works/pi-ai/dist/api/bedrock-converse-stream.js")));
const apiKey = "test-bedrock-token";
// HTTP/1.1 to the local server (the SDK's default handler speaks HTTP/2).
const env = { AWS_BEDROCK_FORCE_HTTP1: "1" };

// The event-stream encoder. Header values: a string is type 7 (string); [type, value] gives
// another type (6: bytes as base64, 4: int32, 0/1: bool).
function encodeHeader(name, value) {
	const n = Buffer.from(name);
	const [type, v] = typeof value === "string" ? [7, value] : value;
	let body;
	switch (type) {
		case 0:
		case 1:
			body = Buffer.alloc(0);
			break;
		case 4:
			body = Buffer.alloc(4);
			body.writeInt32BE(v);
			break;
		case 6:
		case 7: {
			const bytes = type === 6 ? Buffer.from(v, "base64") : Buffer.from(v);
			body = Buffer.alloc(2 + bytes.length);
			body.writeUInt16BE(bytes.length);
			bytes.copy(body, 2);
			break;
		}
		default:
			throw new Error(`header type ${type}`);
	}
	return Buffer.concat([Buffer.from([n.length]), n, Buffer.from([type]), body]);
}
function encodeFrame(headers, payload) {
	const h = Buffer.concat(Object.entries(headers).map(([k, v]) => encodeHeader(k, v)));
	const p = Buffer.from(payload);
	const total = 12 + h.length + p.length + 4;
	const out = Buffer.alloc(total);
	out.writeUInt32BE(total, 0);
	out.writeUInt32BE(h.length, 4);
	out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
	h.copy(out, 12);
	p.copy(out, 12 + h.length);
	out.writeUInt32BE(crc32(out.subarray(0, total - 4)), total - 4);
	return out;
}
// frameOf encodes one frame of a case: {event, payload}, {exception, payload}, {error, message}
// or {headers, payloadText}.
function frameOf(f) {
	if (f.event)
		return encodeFrame({ ":event-type": f.event, ":content-type": "application/json", ":message-type": "event" }, JSON.stringify(f.payload));
	if (f.exception)
		return encodeFrame({ ":exception-type": f.exception, ":content-type": "application/json", ":message-type": "exception" }, JSON.stringify(f.payload));
	if (f.error) return encodeFrame({ ":error-code": f.error, ":error-message": f.message, ":message-type": "error" }, "");
	return encodeFrame(f.headers, f.payloadText ?? "");
}
function encodeCase(c) {
	const frames = c.frames.map(frameOf);
	if (c.corrupt) {
		const [i, where] = c.corrupt;
		const at = where === "prelude" ? 8 : frames[i].length - 4;
		frames[i][at] ^= 1;
	}
	const body = Buffer.concat(frames);
	return c.cut ? body.subarray(0, body.length - c.cut) : body;
}

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
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
	delete m.diagnostics; // timestamps and request ids of the SDK's diagnostics
	return m;
}

// serve answers every request with (status, contentType, headers, body), remembering the last
// request.
async function serve(status, contentType, body, headers = {}) {
	const seen = {};
	const server = createServer((req, res) => {
		let text = "";
		req.on("data", (c) => (text += c));
		req.on("end", () => {
			Object.assign(seen, { body: text, headers: req.headers, url: req.url });
			res.writeHead(status, { "content-type": contentType, ...headers });
			res.end(body);
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	return { seen, url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

const streamCases = JSON.parse(readFileSync(join(dir, "stream/cases.json"), "utf8"));
async function recordStream(name, baseUrl, options, each = () => {}) {
	const model = { ...streamCases.model, baseUrl };
	const context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };
	const events = [];
	let message;
	for await (const ev of streamSimple(model, context, { apiKey, env, ...options })) {
		if (ev.type === "done") message = finalMessage(ev.message);
		else if (ev.type === "error") message = finalMessage(ev.error);
		events.push(record(ev));
		each(ev);
	}
	writeFileSync(join(dir, "stream", `${name}.pi.json`), `${JSON.stringify({ events, message }, null, 2)}\n`);
}

const bodies = {};
for (const c of streamCases.cases) {
	const body = c.frames ? encodeCase(c) : Buffer.from(c.text);
	bodies[c.name] = body;
	writeFileSync(join(dir, "stream", c.body), body);
	const srv = await serve(c.status, c.contentType ?? "application/vnd.amazon.eventstream", body, c.headers);
	await recordStream(c.name, srv.url, {});
	await srv.close();
}
const textCase = streamCases.cases.find((c) => c.name === "text");
const firstDelta = textCase.frames.findIndex((f) => f.event === "contentBlockDelta");
const head = Buffer.concat(textCase.frames.slice(0, firstDelta + 1).map(frameOf));
writeFileSync(join(dir, "stream/text-head.bin"), head);

async function hanging(headFirst) {
	const sockets = new Set();
	const server = createServer((req, res) => {
		req.resume();
		if (!headFirst) return;
		res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
		res.write(head);
	});
	server.on("connection", (s) => sockets.add(s));
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const close = () => {
		for (const s of sockets) s.destroy();
		return new Promise((r) => server.close(r));
	};
	return { url: `http://127.0.0.1:${server.address().port}`, close };
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

// Bodies cut off in the middle of a chunk, after text-head.bin and the start of one more message
// (or none: cut-close-between-events): on a response sent with "Connection: close" (cut-close),
// which Node reads as the end of the body, and on a connection kept alive (cut-keepalive).
// providertest's CutStreams serves the same bytes.
async function cut(name, close, tail) {
	const server = createTCPServer((socket) => {
		socket.once("data", () => {
			const connection = close ? "Connection: close\r\n" : "";
			socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/vnd.amazon.eventstream\r\n${connection}Transfer-Encoding: chunked\r\n\r\n${head.length.toString(16)}\r\n`);
			socket.write(head);
			socket.write(`\r\nff\r\n${tail}`);
			socket.end();
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	await recordStream(name, `http://127.0.0.1:${server.address().port}`, {});
	await new Promise((r) => server.close(r));
}
await cut("cut-close", true, 'data: {"');
await cut("cut-close-between-events", true, "");
await cut("cut-keepalive", false, 'data: {"');

const requestCases = JSON.parse(readFileSync(join(dir, "request/cases.json"), "utf8"));
for (const c of requestCases.cases) {
	const srv = await serve(200, "application/vnd.amazon.eventstream", bodies.text);
	const transcript = JSON.parse(readFileSync(join(dir, "request", c.transcript ?? "transcript.json"), "utf8"));
	for await (const ev of streamSimple({ ...c.model, baseUrl: srv.url }, { messages: transcript }, { apiKey, env: { ...env, ...c.env }, ...c.options })) {
		if (ev.type === "error") throw new Error(`${c.name}: ${ev.error.errorMessage}`);
	}
	await srv.close();
	const out = {
		url: srv.seen.url,
		headers: { authorization: srv.seen.headers.authorization, "content-type": srv.seen.headers["content-type"] },
		body: JSON.parse(srv.seen.body),
	};
	writeFileSync(join(dir, "request", `${c.name}.pi.json`), `${JSON.stringify(out, null, 2)}\n`);
}
