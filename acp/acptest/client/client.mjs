// Drives an ACP agent on this process's stdin and stdout with the official
// TypeScript SDK's client side, and writes what happened as JSON to the
// file named by the first argument. The agent is the Go test (or the
// example) at the other end of the pipes. The second argument is the
// working directory of the sessions. The third, when "example", runs only
// the prompt the example answers; when "load", the fourth names a session
// of an earlier run to list, load and prompt again; when "vanish", it
// starts a prompt that runs a command and exits mid-run.
//
// Every message the agent sends is checked against the SDK's zod schema
// of its kind; the violations are reported under "invalid".
import { writeFileSync, readFileSync, existsSync } from "node:fs";
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import * as z from "./node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";

const [reportPath, cwd, mode, loadID] = process.argv.slice(2);
const report = { protocolVersion: PROTOCOL_VERSION, invalid: [], checked: 0, updates: {}, requests: [] };

// --- validation of everything the agent sends ---------------------------
const responseSchemas = {
  initialize: z.zInitializeResponse,
  authenticate: z.zAuthenticateResponse,
  "session/new": z.zNewSessionResponse,
  "session/load": z.zLoadSessionResponse,
  "session/list": z.zListSessionsResponse,
  "session/prompt": z.zPromptResponse,
  "session/set_mode": z.zSetSessionModeResponse,
};
const requestSchemas = {
  "session/request_permission": z.zRequestPermissionRequest,
  "fs/read_text_file": z.zReadTextFileRequest,
  "fs/write_text_file": z.zWriteTextFileRequest,
  "terminal/create": z.zCreateTerminalRequest,
  "terminal/output": z.zTerminalOutputRequest,
  "terminal/wait_for_exit": z.zWaitForTerminalExitRequest,
  "terminal/kill": z.zKillTerminalRequest,
  "terminal/release": z.zReleaseTerminalRequest,
};
const sent = new Map(); // request id -> method, of the client's requests
const raw = new Map(); // id of a raw line -> its response

function check(schema, value, what) {
  report.checked++;
  if (!schema) {
    report.invalid.push({ what, issues: "no schema for this message" });
    return;
  }
  const r = schema.safeParse(value);
  if (!r.success) report.invalid.push({ what, value, issues: r.error.issues });
}

function validate(msg) {
  if (msg.jsonrpc !== "2.0") report.invalid.push({ what: "jsonrpc", value: msg });
  if (msg.method !== undefined && msg.id !== undefined) {
    check(requestSchemas[msg.method], msg.params, "request " + msg.method);
  } else if (msg.method !== undefined) {
    check(msg.method === "session/update" ? z.zSessionNotification : undefined, msg.params, "notification " + msg.method);
  } else if (msg.error !== undefined) {
    check(z.zError, msg.error, "error of " + (sent.get(msg.id) ?? "raw " + JSON.stringify(msg.id)));
  } else {
    const method = sent.get(msg.id);
    check(responseSchemas[method], msg.result, "response to " + method);
  }
}

const base = ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const writer = base.writable.getWriter();
const stream = {
  readable: base.readable.pipeThrough(
    new TransformStream({
      transform(msg, ctl) {
        validate(msg);
        // The answers to the raw lines below are the test's, not the SDK's.
        if (msg.method === undefined && (msg.id === null || String(msg.id).startsWith("raw-"))) {
          const key = msg.id === null ? "null" : msg.id;
          (raw.get(key) ?? raw.set(key, []).get(key)).push(msg);
          return;
        }
        ctl.enqueue(msg);
      },
    }),
  ),
  writable: new WritableStream({
    write(msg) {
      if (msg.method !== undefined && msg.id !== undefined) sent.set(msg.id, msg.method);
      return writer.write(msg);
    },
  }),
};

// sendRaw writes a line the SDK would never write, and waits for the
// answer to id (null for a line without one).
async function sendRaw(line, id) {
  await writer.ready;
  process.stdout.write(line + "\n");
  const key = id === null ? "null" : id;
  for (let i = 0; i < 500; i++) {
    const got = raw.get(key);
    if (got && got.length > 0) return got.shift();
    await new Promise((r) => setTimeout(r, 10));
  }
  return { timeout: line };
}

// --- the editor: files, terminals, permission answers -------------------
const buffers = new Map(); // unsaved buffers by path
const writes = {};
const terminals = new Map();
let nextTerminal = 0;
let permissionAnswers = []; // option IDs (or "cancelled") to answer with, in turn
const onUpdate = new Set();

function updatesOf(sessionId) {
  return (report.updates[sessionId] ??= []);
}

const app = client({ name: "acp-client-test" })
  .onNotification(methods.client.session.update, ({ params }) => {
    updatesOf(params.sessionId).push(params.update);
    for (const f of onUpdate) f(params);
  })
  .onRequest(methods.client.session.requestPermission, ({ params }) => {
    report.requests.push({ method: "session/request_permission", toolCallId: params.toolCall.toolCallId, title: params.toolCall.title, kinds: params.options.map((o) => o.kind) });
    const answer = permissionAnswers.shift() ?? "reject_once";
    if (answer === "cancelled") return { outcome: { outcome: "cancelled" } };
    const option = params.options.find((o) => o.kind === answer);
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  })
  .onRequest(methods.client.fs.readTextFile, ({ params }) => {
    report.requests.push({ method: "fs/read_text_file", path: params.path });
    if (buffers.has(params.path)) return { content: buffers.get(params.path) };
    return { content: readFileSync(params.path, "utf8") };
  })
  .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
    report.requests.push({ method: "fs/write_text_file", path: params.path });
    writes[params.path] = params.content;
    buffers.set(params.path, params.content);
    return {};
  })
  .onRequest(methods.client.terminal.create, ({ params }) => {
    const id = "term-" + ++nextTerminal;
    report.requests.push({ method: "terminal/create", command: params.command, args: params.args, cwd: params.cwd });
    const env = { ...process.env };
    for (const v of params.env ?? []) env[v.name] = v.value;
    const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? cwd, env });
    const t = { child, output: "", exit: null };
    t.exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        t.exit = { exitCode: code, signal };
        resolve(t.exit);
      }),
    );
    child.stdout.on("data", (d) => (t.output += d));
    child.stderr.on("data", (d) => (t.output += d));
    terminals.set(id, t);
    return { terminalId: id };
  })
  .onRequest(methods.client.terminal.waitForExit, async ({ params }) => terminals.get(params.terminalId).exited)
  .onRequest(methods.client.terminal.output, async ({ params }) => {
    const t = terminals.get(params.terminalId);
    if (t.exit === null) await new Promise((r) => setTimeout(r, 20));
    return { output: t.output, truncated: false, exitStatus: t.exit };
  })
  .onRequest(methods.client.terminal.kill, ({ params }) => {
    report.requests.push({ method: "terminal/kill", terminalId: params.terminalId });
    terminals.get(params.terminalId).child.kill("SIGKILL");
    return {};
  })
  .onRequest(methods.client.terminal.release, ({ params }) => {
    report.requests.push({ method: "terminal/release", terminalId: params.terminalId });
    const t = terminals.get(params.terminalId);
    if (t && t.exit === null) t.child.kill("SIGKILL");
    terminals.delete(params.terminalId);
    return {};
  });

// errorOf runs f and returns the JSON-RPC error it failed with.
async function errorOf(f) {
  try {
    await f();
    return null;
  } catch (e) {
    return { code: e.code, message: e.message };
  }
}

function text(prompt) {
  return [{ type: "text", text: prompt }];
}

// --- the scenarios ------------------------------------------------------
await app.connectWith(stream, async (agent) => {
  report.initialize = await agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    clientInfo: { name: "acp-client-test", version: "1.0.0" },
  });
  const newSession = async () => (await agent.request(methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
  const prompt = async (sessionId, p) => (await agent.request(methods.agent.session.prompt, { sessionId, prompt: typeof p === "string" ? text(p) : p })).stopReason;

  if (mode === "example") {
    const s = await newSession();
    report.example = { session: s, stop: await prompt(s, "hello") };
    return;
  }
  if (mode === "vanish") {
    const s = await newSession();
    const started = new Promise((resolve) => onUpdate.add((params) => params.update.content?.some((c) => c.type === "terminal") && resolve()));
    prompt(s, "sleep").catch(() => {});
    await started;
    report.vanish = { session: s };
    writeFileSync(reportPath, JSON.stringify(report, null, 1));
    for (const t of terminals.values()) t.child.kill("SIGKILL");
    process.exit(0);
  }
  if (mode === "load") {
    report.list = await agent.request(methods.agent.session.list, { cwd });
    report.load = await agent.request(methods.agent.session.load, { sessionId: loadID, cwd, mcpServers: [] });
    report.replayed = [...updatesOf(loadID)];
    report.again = await prompt(loadID, "hello");
    return;
  }

  // Streamed text and thought.
  const hello = await newSession();
  report.hello = { session: hello, stop: await prompt(hello, "hello") };

  // Every content block.
  report.blocks = {
    stop: await prompt(hello, [
      { type: "text", text: "look at these" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource_link", uri: "file://" + cwd + "/a.txt", name: "a.txt" },
      { type: "resource", resource: { uri: "file://" + cwd + "/a.txt", text: "embedded text", mimeType: "text/plain" } },
    ]),
  };

  // Tool calls, and the files through the client: the read sees the unsaved
  // buffer, the edit is written through the editor.
  const tools = await newSession();
  buffers.set(cwd + "/a.txt", "unsaved buffer\n");
  report.tools = { session: tools, stop: await prompt(tools, "edit a.txt") };
  report.writes = writes;

  // A plan.
  const plan = await newSession();
  report.plan = { session: plan, stop: await prompt(plan, "plan") };

  // A terminal command through the client.
  const shell = await newSession();
  report.shell = { session: shell, stop: await prompt(shell, "shell") };

  // Permissions, answered each way.
  report.permissions = {};
  for (const answers of [["allow_once", "allow_once"], ["reject_once", "reject_once"], ["allow_always"], ["reject_always"], ["cancelled"]]) {
    const s = await newSession();
    permissionAnswers = [...answers];
    const before = report.requests.filter((r) => r.method === "session/request_permission").length;
    const stop = await prompt(s, "deploy twice");
    const asked = report.requests.filter((r) => r.method === "session/request_permission").length - before;
    report.permissions[answers[0]] = { session: s, stop, asked };
  }

  // Cancel mid-tool: the command runs in the client's terminal until the
  // cancel kills it.
  const cancel = await newSession();
  const started = new Promise((resolve) => {
    const f = (params) => {
      if (params.sessionId === cancel && params.update.sessionUpdate === "tool_call_update" && params.update.content?.some((c) => c.type === "terminal")) {
        onUpdate.delete(f);
        resolve();
      }
    };
    onUpdate.add(f);
  });
  const running = prompt(cancel, "sleep");
  await started;
  await agent.notify(methods.agent.session.cancel, { sessionId: cancel });
  report.cancel = { session: cancel, stop: await running, again: await prompt(cancel, "hello") };

  // A second prompt while one runs, and a cancel for nothing.
  const busy = await newSession();
  const first = prompt(busy, "sleep");
  await new Promise((resolve) => {
    const f = (params) => {
      if (params.sessionId === busy && params.update.sessionUpdate === "tool_call_update") {
        onUpdate.delete(f);
        resolve();
      }
    };
    onUpdate.add(f);
  });
  report.busy = { second: await errorOf(() => prompt(busy, "hello")) };
  await agent.notify(methods.agent.session.cancel, { sessionId: busy });
  await agent.notify(methods.agent.session.cancel, { sessionId: "no-such-session" });
  report.busy.first = await first;

  // List and load.
  report.list = await agent.request(methods.agent.session.list, { cwd });
  report.listAll = await agent.request(methods.agent.session.list, {});
  report.loadUnknown = await errorOf(() => agent.request(methods.agent.session.load, { sessionId: "no-such-session", cwd, mcpServers: [] }));
  report.loadOpen = await errorOf(() => agent.request(methods.agent.session.load, { sessionId: hello, cwd, mcpServers: [] }));

  // Bad input, through the SDK and as raw lines.
  report.bad = {
    unknownSession: await errorOf(() => prompt("no-such-session", "hello")),
    unknownMethod: await errorOf(() => agent.request("session/fly", {})),
    relativeCwd: await errorOf(() => agent.request(methods.agent.session.new, { cwd: "relative", mcpServers: [] })),
    emptyPrompt: await errorOf(() => prompt(hello, [])),
    audio: await errorOf(() => prompt(hello, [{ type: "audio", data: "AA==", mimeType: "audio/wav" }])),
    notJSON: await sendRaw('{"jsonrpc":"2.0","id":"raw-1",', null),
    noVersion: await sendRaw('{"id":"raw-2","method":"session/list","params":{}}', "raw-2"),
    badParams: await sendRaw('{"jsonrpc":"2.0","id":"raw-3","method":"session/prompt","params":{"sessionId":1}}', "raw-3"),
  };
  report.bad.after = await prompt(hello, "hello");
});

writeFileSync(reportPath, JSON.stringify(report, null, 1));
