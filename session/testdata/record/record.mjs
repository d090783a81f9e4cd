// Records the session fixtures of package session with pi-coding-agent's own
// SessionManager, and reads back session files written by Go.
//
//   node record.mjs record <outdir>      write <outdir>/<history>/{session.jsonl,expect.json}
//   node record.mjs check <file>...      print, as JSON, what pi sees in each file
//
// Needs Node >= 22 and `npm ci` in this directory. Each history is a script of
// SessionManager calls (or a hand-written file pi opens: legacy versions it
// migrates, odd numbers, escapes, missing members, scalar lines); expect.json
// holds the tree pi built from the file it wrote, the context it builds from
// every entry taken as the leaf (or the error it throws) and convertToLlm of
// the leaf's context. script.json logs the calls of a scripted history, which
// the Go tests replay with pi's IDs and times to compare bytes; fork.json
// names the source of a fork (createBranchedSession, forkFrom) of an odd file.
import { SessionManager, buildSessionContext, convertToLlm } from "@earendil-works/pi-coding-agent";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CWD = "/work/project";
let clock = 1733234400000;
const tick = () => (clock += 1000);

const usage = (input, output) => ({
	input,
	output,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + output,
	cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 },
});
const user = (text) => ({ role: "user", content: text, timestamp: tick() });
const userBlocks = (...content) => ({ role: "user", content, timestamp: tick() });
const assistant = (text, model = "claude-sonnet-4-5", provider = "anthropic", extra = {}) => ({
	role: "assistant",
	content: [{ type: "text", text }],
	api: "anthropic-messages",
	provider,
	model,
	usage: usage(100, 20),
	stopReason: "stop",
	timestamp: tick(),
	...extra,
});
const toolCall = (id, name, args) => ({
	role: "assistant",
	content: [
		{ type: "thinking", thinking: "I should call " + name, thinkingSignature: "sig" },
		{ type: "toolCall", id, name, arguments: args },
	],
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-5",
	usage: usage(120, 30),
	stopReason: "toolUse",
	timestamp: tick(),
});
const toolResult = (id, name, text, isError = false) => ({
	role: "toolResult",
	toolCallId: id,
	toolName: name,
	content: [{ type: "text", text }],
	isError,
	timestamp: tick(),
});
const system = (content, extra = {}) => ({ role: "system", content, ...extra, timestamp: tick() });
const readTool = { name: "read", description: "Read a file.", parameters: { type: "object", properties: { path: { type: "string" } } } };
const bashTool = { name: "bash", description: "Run a command.", parameters: { type: "object", properties: { command: { type: "string" } } } };

// chat appends n user/assistant exchanges and returns the ids.
function chat(sm, n, tag = "") {
	const ids = [];
	for (let i = 0; i < n; i++) {
		ids.push(sm.appendMessage(user(`question ${tag}${i}`)));
		ids.push(sm.appendMessage(assistant(`answer ${tag}${i}`)));
	}
	return ids;
}

// Scripted histories: each gets a fresh persisted SessionManager.
const histories = {
	"01-user-only": (sm) => sm.appendMessage(user("hello")),
	"02-chat": (sm) => chat(sm, 2),
	"03-tool-calls": (sm) => {
		sm.appendMessage(user("read the readme"));
		sm.appendMessage(toolCall("call_1", "read", { path: "README.md" }));
		sm.appendMessage(toolResult("call_1", "read", "# Title"));
		sm.appendMessage(assistant("It has a title."));
	},
	"04-system-first": (sm) => {
		sm.appendMessage(system("You are a coding assistant.", { sections: { cwd: "/work/project" }, toolsAdded: [readTool] }));
		chat(sm, 1);
	},
	"05-system-patches": (sm) => {
		sm.appendMessage(system("", { sections: { preamble: "Be brief.", cwd: "/a" }, toolsAdded: [readTool, bashTool] }));
		chat(sm, 1);
		sm.appendMessage(system("", { sections: { cwd: null, skills: "<skills/>" }, toolsRemoved: [{ name: "bash" }] }));
		chat(sm, 1, "b");
	},
	"06-model-change": (sm) => {
		sm.appendModelChange("openai", "gpt-4o");
		sm.appendMessage(user("hi"));
	},
	"07-thinking-level": (sm) => {
		sm.appendThinkingLevelChange("high");
		chat(sm, 1);
		sm.appendThinkingLevelChange("low");
	},
	"08-model-then-assistant": (sm) => {
		sm.appendModelChange("openai", "gpt-4o");
		sm.appendMessage(user("hi"));
		sm.appendMessage(assistant("hello", "gemini-2.5-pro", "google", { thinkingLevel: "medium" }));
	},
	"09-label": (sm) => {
		const [u] = chat(sm, 2);
		sm.appendLabelChange(u, "start");
	},
	"10-label-cleared": (sm) => {
		const [u, a] = chat(sm, 1);
		sm.appendLabelChange(u, "first");
		sm.appendLabelChange(a, "answer");
		sm.appendLabelChange(u, undefined);
	},
	"11-label-relabel": (sm) => {
		const [u] = chat(sm, 1);
		sm.appendLabelChange(u, "one");
		sm.appendLabelChange(u, "two");
		sm.appendMessage(user("after the labels"));
	},
	"12-branch": (sm) => {
		const ids = chat(sm, 2);
		sm.branch(ids[1]);
		chat(sm, 1, "alt");
	},
	"13-three-branches": (sm) => {
		const ids = chat(sm, 2);
		sm.branch(ids[1]);
		chat(sm, 1, "b");
		sm.branch(ids[1]);
		chat(sm, 1, "c");
		sm.branch(ids[3]);
		sm.appendMessage(user("back on the first branch"));
	},
	"14-branch-summary": (sm) => {
		const ids = chat(sm, 2);
		sm.branchWithSummary(ids[1], "Tried approach A; it failed.", { readFiles: ["a.go"], modifiedFiles: [] }, false, usage(10, 5));
		chat(sm, 1, "b");
	},
	"15-branch-summary-root": (sm) => {
		chat(sm, 1);
		sm.branchWithSummary(null, "Started over.");
		sm.appendMessage(user("fresh start"));
	},
	"16-reset-leaf": (sm) => {
		chat(sm, 1);
		sm.resetLeaf();
		chat(sm, 1, "root2");
	},
	"17-compaction": (sm) => {
		const ids = chat(sm, 3);
		sm.appendCompaction("Discussed questions 0 and 1.", ids[4], 5000);
		chat(sm, 1, "after");
	},
	"18-compaction-retain-none": (sm) => {
		chat(sm, 2);
		sm.appendCompaction("Everything so far.", undefined, 3000);
		sm.appendMessage(user("next"));
	},
	"19-compaction-system": (sm) => {
		sm.appendMessage(system("Prompt.", { sections: { cwd: "/x" }, toolsAdded: [readTool] }));
		const ids = chat(sm, 2);
		sm.appendMessage(system("", { sections: { cwd: "/y" } }));
		chat(sm, 1, "b");
		sm.appendCompaction("Summary with system state.", ids[2], 7000);
		chat(sm, 1, "c");
	},
	"20-two-compactions": (sm) => {
		const a = chat(sm, 2);
		sm.appendCompaction("First summary.", a[2], 4000);
		const b = chat(sm, 2, "x");
		sm.appendCompaction("Second summary.", b[2], 4500);
		chat(sm, 1, "y");
	},
	"21-compaction-then-branch-before": (sm) => {
		const ids = chat(sm, 2);
		sm.appendCompaction("Summary.", ids[2], 4000);
		chat(sm, 1, "after");
		sm.branch(ids[1]);
		chat(sm, 1, "alt");
	},
	"22-compaction-details": (sm) => {
		const ids = chat(sm, 2);
		sm.appendCompaction("Hook summary.", ids[2], 6000, { readFiles: ["a.go"], modifiedFiles: ["b.go"] }, true, usage(300, 40));
		sm.appendMessage(user("go on"));
	},
	"23-custom-entry": (sm) => {
		chat(sm, 1);
		sm.appendCustomEntry("my-extension", { count: 42, nested: { ok: true } });
		sm.appendCustomEntry("no-data");
		chat(sm, 1, "b");
	},
	"24-custom-message": (sm) => {
		sm.appendMessage(user("hi"));
		sm.appendCustomMessageEntry("ext", "Injected context.", true);
		sm.appendCustomMessageEntry("ext", [{ type: "text", text: "hidden" }], false, { source: "x" });
		sm.appendMessage(assistant("ok"));
	},
	"25-session-name": (sm) => {
		chat(sm, 1);
		sm.appendSessionInfo("Refactor\nauth  module ");
		sm.appendSessionInfo("");
		sm.appendSessionInfo("Final name");
	},
	"26-usage-entry": (sm) => {
		chat(sm, 1);
		sm.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage(0, 0), "warming");
		sm.appendUsage("other", "openai", "gpt-4o", usage(5, 1));
		sm.appendMessage(user("next"));
	},
	"27-context-edit-omit": (sm) => {
		const ids = chat(sm, 2);
		sm.appendContextEdit(ids[1], null);
	},
	"28-context-edit-string": (sm) => {
		const ids = chat(sm, 2);
		sm.appendContextEdit(ids[1], { content: "shorter answer" });
		sm.appendContextEdit(ids[0], { content: "rephrased question" });
		sm.appendMessage(user("next"));
	},
	"29-context-edit-tool-result": (sm) => {
		sm.appendMessage(user("read"));
		sm.appendMessage(toolCall("c1", "read", { path: "big.txt" }));
		const r = sm.appendMessage(toolResult("c1", "read", "x".repeat(500)));
		sm.appendMessage(assistant("done"));
		sm.appendContextEdit(r, { content: [{ type: "text", text: "[elided]" }] });
		sm.appendContextEdit(r, { content: "[elided twice]" });
	},
	"30-context-edit-custom": (sm) => {
		sm.appendMessage(user("hi"));
		const c = sm.appendCustomMessageEntry("ext", "Injected.", true);
		sm.appendContextEdit(c, { content: "Edited injection." });
	},
	"31-context-edit-branch": (sm) => {
		const ids = chat(sm, 2);
		sm.appendContextEdit(ids[0], null);
		sm.branch(ids[3]);
		sm.appendMessage(user("without the edit"));
	},
	"32-label-parents": (sm) => {
		const [u, a] = chat(sm, 1);
		sm.appendLabelChange(a, "checkpoint");
		sm.appendMessage(user("child of a label"));
		sm.appendLabelChange(u, "q");
	},
	"33-images": (sm) => {
		sm.appendMessage(userBlocks({ type: "text", text: "what is this?" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }));
		sm.appendMessage(assistant("a pixel"));
	},
	"34-error-and-abort": (sm) => {
		sm.appendMessage(user("hi"));
		sm.appendMessage({ ...assistant(""), content: [], stopReason: "error", errorMessage: "overloaded" });
		sm.appendMessage(user("again"));
		sm.appendMessage({ ...assistant("part"), stopReason: "aborted", errorMessage: "Request was aborted" });
	},
	"35-app-roles": (sm) => {
		sm.appendMessage(user("run ls"));
		sm.appendMessage({ role: "bashExecution", command: "ls", output: "a\nb", exitCode: 0, cancelled: false, truncated: false, timestamp: tick() });
		sm.appendMessage({ role: "bashExecution", command: "make", output: "", exitCode: 2, cancelled: false, truncated: true, fullOutputPath: "/tmp/out.txt", timestamp: tick() });
		sm.appendMessage({ role: "bashExecution", command: "sleep 9", output: "zz", exitCode: null, cancelled: true, truncated: false, timestamp: tick() });
		sm.appendMessage({ role: "bashExecution", command: "secret", output: "x", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: tick() });
		sm.appendMessage({ role: "mystery", content: "an unknown role", timestamp: tick() });
		sm.appendMessage({ role: "custom", customType: "note", content: "x", display: true, timestamp: tick() });
		sm.appendMessage(assistant("two files"));
	},
	"36-deep": (sm) => chat(sm, 30),
	"37-custom-id": { options: { id: "my-session.1" }, run: (sm) => chat(sm, 1) },
	"38-everything": (sm) => {
		sm.appendMessage(system("Prompt.", { toolsAdded: [readTool] }));
		sm.appendModelChange("anthropic", "claude-opus-4-1");
		sm.appendThinkingLevelChange("medium");
		const ids = chat(sm, 2);
		sm.appendLabelChange(ids[0], "start");
		sm.appendCustomEntry("state", [1, 2, 3]);
		sm.appendCustomMessageEntry("ext", "context", false);
		sm.appendCompaction("Summary.", ids[2], 1234);
		sm.appendSessionInfo("Everything");
		sm.branchWithSummary(ids[1], "Left a branch.");
		sm.appendUsage("cache_warm", "anthropic", "claude-opus-4-1", usage(1, 1));
		chat(sm, 1, "z");
	},
	"39-compaction-kept-label": (sm) => {
		const ids = chat(sm, 2);
		const l = sm.appendLabelChange(ids[0], "here");
		chat(sm, 1, "b");
		sm.appendCompaction("Summary.", l, 2000);
		chat(sm, 1, "c");
	},
	"40-compaction-on-branch": (sm) => {
		const ids = chat(sm, 3);
		sm.branch(ids[3]);
		const b = chat(sm, 2, "b");
		sm.appendCompaction("Branch summary.", b[0], 3000);
		sm.branch(ids[5]);
		sm.appendMessage(user("on the uncompacted branch"));
	},
	"45-escaping": (sm) => {
		const odd = "a <b> & c \u2028 d \u2029 e \u0001 \u007f \"q\" \\ / é 😀 \t";
		const u = sm.appendMessage(user(odd));
		sm.appendMessage(assistant(odd));
		sm.appendLabelChange(u, "<" + odd + ">");
		sm.appendSessionInfo(odd);
		sm.appendCustomEntry("<ext>", { "b": odd, "2": [odd], "1": { "&": true } });
		sm.appendCustomMessageEntry("ext&", odd, true, { "<": odd });
		sm.appendModelChange("p<", "m>&");
		sm.appendCompaction(odd, u, 1, { readFiles: [odd], modifiedFiles: [] });
		sm.branchWithSummary(u, odd);
	},
	"46-open-missing": { open: true, run: (sm) => {
		sm.appendModelChange("openai", "gpt-4o");
		chat(sm, 1);
	} },
	"47-js-numbers": (sm) => {
		sm.appendMessage({ ...user("huge timestamp"), timestamp: 12345678901234567890 });
		sm.appendMessage(assistant("fractional usage", "m", "p", { usage: { ...usage(1.5, 1e21), totalTokens: -0.5 } }));
		sm.appendUsage("cache_warm", "p", "m", usage(2.5, 0));
		sm.appendCompaction("tokens as a fraction", undefined, 1.5);
		sm.appendCustomEntry("n", { a: 1e21, b: 1e-7, c: -0, d: 0.1 + 0.2 });
	},
	"41-null-content": (sm) => {
		sm.appendMessage({ role: "user", content: null, timestamp: tick() });
		sm.appendMessage({ ...assistant("x"), content: null });
		sm.appendMessage({ role: "system", content: null, timestamp: tick() });
	},
};

// Legacy and hand-written files: pi opens them (migrating as needed).
const legacy = {
	"50-v1-linear": [
		{ type: "session", id: "v1-linear", timestamp: "2024-11-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", timestamp: "2024-11-01T10:00:01.000Z", message: user("old hello") },
		{ type: "message", timestamp: "2024-11-01T10:00:02.000Z", message: assistant("old answer") },
		{ type: "thinking_level_change", timestamp: "2024-11-01T10:00:03.000Z", thinkingLevel: "low" },
		{ type: "model_change", timestamp: "2024-11-01T10:00:04.000Z", provider: "openai", modelId: "gpt-4o" },
		{ type: "message", timestamp: "2024-11-01T10:00:05.000Z", message: user("more") },
	],
	"51-v1-compaction": [
		{ type: "session", version: 1, id: "v1-compaction", timestamp: "2024-11-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", timestamp: "2024-11-01T10:00:01.000Z", message: user("q0") },
		{ type: "message", timestamp: "2024-11-01T10:00:02.000Z", message: assistant("a0") },
		{ type: "message", timestamp: "2024-11-01T10:00:03.000Z", message: user("q1") },
		{ type: "message", timestamp: "2024-11-01T10:00:04.000Z", message: assistant("a1") },
		{ type: "compaction", timestamp: "2024-11-01T10:00:05.000Z", summary: "Old summary.", firstKeptEntryIndex: 3, tokensBefore: 900 },
		{ type: "message", timestamp: "2024-11-01T10:00:06.000Z", message: user("q2") },
	],
	"52-v1-compaction-index-header": [
		{ type: "session", id: "v1-compaction-0", timestamp: "2024-11-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", timestamp: "2024-11-01T10:00:01.000Z", message: user("q0") },
		{ type: "compaction", timestamp: "2024-11-01T10:00:05.000Z", summary: "Kept from the header.", firstKeptEntryIndex: 0, tokensBefore: 10 },
		{ type: "message", timestamp: "2024-11-01T10:00:06.000Z", message: user("q1") },
	],
	"53-v2-hook-message": [
		{ type: "session", version: 2, id: "v2-hook", timestamp: "2024-12-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", id: "aaaa0001", parentId: null, timestamp: "2024-12-01T10:00:01.000Z", message: user("hi") },
		{ type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: "2024-12-01T10:00:02.000Z", message: { role: "hookMessage", customType: "hook", content: "from a hook", display: true, timestamp: tick() } },
		{ type: "message", id: "aaaa0003", parentId: "aaaa0002", timestamp: "2024-12-01T10:00:03.000Z", message: assistant("ok") },
	],
	"54-v2-tree": [
		{ type: "session", version: 2, id: "v2-tree", timestamp: "2024-12-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", id: "bbbb0001", parentId: null, timestamp: "2024-12-01T10:00:01.000Z", message: user("root") },
		{ type: "message", id: "bbbb0002", parentId: "bbbb0001", timestamp: "2024-12-01T10:00:02.000Z", message: assistant("a") },
		{ type: "message", id: "bbbb0003", parentId: "bbbb0002", timestamp: "2024-12-01T10:00:03.000Z", message: user("left") },
		{ type: "branch_summary", id: "bbbb0004", parentId: "bbbb0002", timestamp: "2024-12-01T10:00:04.000Z", fromId: "bbbb0003", summary: "Went left." },
		{ type: "label", id: "bbbb0005", parentId: "bbbb0004", timestamp: "2024-12-01T10:00:05.000Z", targetId: "bbbb0001", label: "root" },
		{ type: "message", id: "bbbb0006", parentId: "bbbb0005", timestamp: "2024-12-01T10:00:06.000Z", message: user("right") },
	],
	"55-unknown-entry": [
		{ type: "session", version: 3, id: "unknown-entry", timestamp: "2025-01-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", id: "cccc0001", parentId: null, timestamp: "2025-01-01T10:00:01.000Z", message: user("hi") },
		{ type: "future_thing", id: "cccc0002", parentId: "cccc0001", timestamp: "2025-01-01T10:00:02.000Z", payload: { a: [1, 2] } },
		{ type: "message", id: "cccc0003", parentId: "cccc0002", timestamp: "2025-01-01T10:00:03.000Z", message: assistant("still here") },
	],
	"56-parent-session": [
		{ type: "session", version: 3, id: "child", timestamp: "2025-01-01T10:00:00.000Z", cwd: CWD, parentSession: "/tmp/parent.jsonl" },
		{ type: "message", id: "dddd0001", parentId: null, timestamp: "2025-01-01T10:00:01.000Z", message: user("hi") },
	],
	"57-orphan": [
		{ type: "session", version: 3, id: "orphan", timestamp: "2025-01-01T10:00:00.000Z", cwd: CWD },
		{ type: "message", id: "eeee0001", parentId: null, timestamp: "2025-01-01T10:00:01.000Z", message: user("hi") },
		{ type: "message", id: "eeee0002", parentId: "missing1", timestamp: "2025-01-01T10:00:02.000Z", message: user("orphan") },
		{ type: "message", id: "eeee0003", parentId: "eeee0002", timestamp: "2025-01-01T10:00:03.000Z", message: assistant("child of orphan") },
	],
};
// Hand-written files, raw text: what no SessionManager call writes (odd
// numbers, escapes, missing fields, scalar lines, odd versions). pi opens
// each (migrating and rewriting the older ones); run, when given, then
// appends to the opened session.
const H3 = (id, extra = "") => `{"type":"session","version":3,"id":"${id}","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/work/project"${extra}}`;
const msg = (id, parent, n, message) =>
	`{"type":"message","id":"${id}","parentId":${parent ? `"${parent}"` : "null"},"timestamp":"2025-01-01T10:00:0${n}.000Z","message":${message}}`;
const userJSON = (text, ts = 1733234400000) => `{"role":"user","content":${JSON.stringify(text)},"timestamp":${ts}}`;
const asstJSON = (text, usage = '{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}', ts = 1733234401000) =>
	`{"role":"assistant","content":[{"type":"text","text":${JSON.stringify(text)}}],"api":"anthropic-messages","provider":"anthropic","model":"m","usage":${usage},"stopReason":"stop","timestamp":${ts}}`;
const v1 = (n, rest) => `{"type":${rest.startsWith('"') ? rest : `"message","timestamp":"2024-11-01T10:00:0${n}.000Z","message":${rest}`}}`;
const v1c = (n, fields) => `{"type":"compaction","timestamp":"2024-11-01T10:00:0${n}.000Z",${fields}}`;
const weird = 'a <b> & c \u2028 d \u2029 e \\u2028 f \\u003c g \\/ h \\u0001 i \\u007f j é \\u00e9 k \\ud800 l \\udc00\\ud800 m \\ud83d\\ude00 n 😀 o \\"q\\" \\\\ p \\t';

const rawFiles = {
	"60-js-numbers": [
		H3("js-numbers"),
		msg("n0000001", null, 1, userJSON("hi", "12345678901234567890")),
		msg("n0000002", "n0000001", 2, asstJSON("ok", '{"input":1.5,"output":1e21,"cacheRead":-3,"cacheWrite":0.1,"totalTokens":5e-7,"cost":{"input":1E+2,"output":-0,"cacheRead":0.30000000000000004,"cacheWrite":1e-7,"total":123456789012345680000}}', "1.5")),
		'{"type":"usage","id":"n0000003","parentId":"n0000002","timestamp":"2025-01-01T10:00:03.000Z","kind":"cache_warm","provider":"anthropic","model":"m","usage":{"input":1.5,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3.5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}',
		'{"type":"compaction","id":"n0000004","parentId":"n0000003","timestamp":"2025-01-01T10:00:04.000Z","summary":"S.","firstKeptEntryId":"n0000002","tokensBefore":1.5}',
		msg("n0000005", "n0000004", 5, '{"role":"toolResult","toolCallId":"c","toolName":"t","content":[{"type":"text","text":"r"}],"isError":false,"timestamp":-1e21}'),
		'{"type":"custom_message","customType":"x","content":"c","display":true,"details":{"n":1.0,"big":1e400,"e":2E3},"id":"n0000006","parentId":"n0000005","timestamp":"2025-01-01T10:00:06.000Z"}',
		msg("n0000007", "n0000006", 7, userJSON("last", "1e21")),
	],
	"61-v1-compaction-index-odd": [
		'{"type":"session","id":"v1-odd","timestamp":"2024-11-01T10:00:00.000Z","cwd":"/work/project"}',
		v1(1, userJSON("q0")),
		v1(2, asstJSON("a0")),
		v1c(3, '"summary":"index as a string","firstKeptEntryIndex":"2","tokensBefore":1'),
		v1c(4, '"summary":"fractional index","firstKeptEntryIndex":1.5,"tokensBefore":2'),
		v1c(5, '"summary":"negative index","firstKeptEntryIndex":-1,"tokensBefore":3'),
		v1c(6, '"summary":"forward index","firstKeptEntryIndex":9,"tokensBefore":4'),
		v1c(7, '"summary":"null index","firstKeptEntryIndex":null,"tokensBefore":5'),
		v1c(8, '"firstKeptEntryIndex":2,"tokensBefore":6'),
		v1(9, userJSON("q1")),
		v1(9, '{"role":"hookMessage","customType":"hook","content":"from a v1 hook","display":true,"timestamp":1}'),
		'{"type":"label","timestamp":"2024-11-01T10:00:09.000Z","targetId":"whatever","label":""}',
	],
	"62-v2-version-string": [
		'{"type":"session","version":"2","id":"v2-string","timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project"}',
		msg("aaaa0001", null, 1, userJSON("hi")),
		msg("aaaa0002", "aaaa0001", 2, '{"role":"hookMessage","customType":"hook","content":"from a hook","display":true,"timestamp":5}'),
	],
	"63-version-3-string": [
		'{"type":"session","version":"3","id":"v3-string","timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project"}',
		msg("aaaa0001", null, 1, userJSON("hi")),
	],
	"64-version-null": [
		'{"type":"session","version":null,"id":"v-null","timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project"}',
		v1(1, userJSON("hi")),
		v1(2, asstJSON("hello")),
	],
	"65-version-nan": [
		'{"type":"session","version":"abc","id":"v-nan","timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project"}',
		msg("aaaa0001", null, 1, userJSON("hi")),
		msg("aaaa0002", "aaaa0001", 2, '{"role":"hookMessage","customType":"hook","content":"kept as hookMessage","display":true,"timestamp":5}'),
	],
	"66-version-fraction": [
		'{"type":"session","id":"v-frac","timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project","version":2.5}',
		msg("aaaa0001", null, 1, userJSON("hi")),
		msg("aaaa0002", "aaaa0001", 2, '{"role":"hookMessage","customType":"hook","content":"renamed","display":true,"timestamp":5}'),
	],
	"67-message-without-message": [
		H3("no-message"),
		msg("m0000001", null, 1, userJSON("hi")),
		'{"type":"message","id":"m0000002","parentId":"m0000001","timestamp":"2025-01-01T10:00:02.000Z"}',
		msg("m0000003", "m0000002", 3, userJSON("after a message entry without a message")),
		'{"type":"message","id":"m0000004","parentId":"m0000001","timestamp":"2025-01-01T10:00:04.000Z","message":null}',
		msg("m0000005", "m0000001", 5, '"just a string"'),
		msg("m0000006", "m0000001", 6, '{"role":"user","content":7,"timestamp":1}'),
		msg("m0000007", "m0000001", 7, asstJSON("the leaf")),
	],
	"68-scalar-lines": [
		H3("scalars"),
		msg("s0000001", null, 1, userJSON("hi")),
		"42",
		'"text"',
		"true",
		"[1,2]",
		"null",
		"0",
		"false",
		'""',
		"{}",
		msg("s0000002", "s0000001", 2, asstJSON("after the scalars")),
	],
	"69-scalar-last": {
		lines: [
			H3("scalar-last"),
			msg("s0000001", null, 1, userJSON("hi")),
			msg("s0000002", "s0000001", 2, asstJSON("hello")),
			"7",
		],
		run: (sm) => {
			sm.appendMessage(user("after a scalar line: no parentId"));
			sm.appendMessage(user("its child"));
		},
	},
	"70-header-fields": [
		'{"type":"session","id":"hdr","extra":{"b":1,"2":2,"1":[3]},"timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project","note":"kept","version":2}',
		msg("aaaa0001", null, 1, userJSON("hi")),
	],
	"71-header-fields-v3": [
		'{"type":"session","id":"hdr3","extra":{"b":1,"2":2},"timestamp":"2024-12-01T10:00:00.000Z","cwd":"/work/project","version":3,"parentSession":null}',
		msg("aaaa0001", null, 1, userJSON("hi")),
		msg("aaaa0002", "aaaa0001", 2, asstJSON("hello")),
	],
	"72-missing-fields": [
		H3("missing"),
		msg("f0000001", null, 1, userJSON("hi")),
		'{"type":"label","id":"f0000002","parentId":"f0000001","timestamp":"2025-01-01T10:00:02.000Z","targetId":"f0000001","label":"set"}',
		'{"type":"label","id":"f0000003","parentId":"f0000002","timestamp":"2025-01-01T10:00:03.000Z","targetId":"f0000001","label":""}',
		'{"type":"label","id":"f0000004","parentId":"f0000003","timestamp":"2025-01-01T10:00:04.000Z","targetId":"f0000001"}',
		'{"type":"label","id":"f0000005","parentId":"f0000004","timestamp":"2025-01-01T10:00:04.500Z","targetId":"f0000001","label":null}',
		'{"type":"custom_message","customType":"x","display":true,"id":"f0000006","parentId":"f0000005","timestamp":"2025-01-01T10:00:05.000Z"}',
		'{"type":"custom_message","customType":"x","content":null,"display":false,"details":null,"id":"f0000007","parentId":"f0000006","timestamp":"2025-01-01T10:00:06.000Z"}',
		'{"type":"compaction","id":"f0000008","parentId":"f0000007","timestamp":"2025-01-01T10:00:07.000Z","firstKeptEntryId":"f0000006","tokensBefore":10}',
		'{"type":"branch_summary","id":"f0000009","parentId":"f0000008","timestamp":"2025-01-01T10:00:08.000Z","fromId":"f0000001"}',
		'{"type":"custom","customType":"nodata","id":"f0000010","parentId":"f0000009","timestamp":"2025-01-01T10:00:09.000Z"}',
		'{"type":"custom","customType":"nulldata","data":null,"id":"f0000011","parentId":"f0000010","timestamp":"2025-01-01T10:00:09.100Z"}',
		'{"type":"session_info","id":"f0000012","parentId":"f0000011","timestamp":"2025-01-01T10:00:09.200Z"}',
		'{"type":"thinking_level_change","id":"f0000013","parentId":"f0000012","timestamp":"2025-01-01T10:00:09.300Z"}',
		'{"type":"model_change","id":"f0000014","parentId":"f0000013","timestamp":"2025-01-01T10:00:09.400Z","provider":"p"}',
		'{"type":"message","id":"f0000015","parentId":"f0000014","message":{"role":"user","content":null,"timestamp":1}}',
		'{"type":"message","id":"f0000016","parentId":"f0000015","timestamp":"2025-01-01T10:00:09.600Z","message":{"role":"assistant","content":null}}',
		'{"type":"custom_message","customType":"x","content":"tail","display":true,"id":"f0000017","parentId":"f0000016"}',
	],
	"73-no-id": {
		lines: [
			H3("no-id"),
			msg("i0000001", null, 1, userJSON("hi")),
			'{"type":"message","parentId":"i0000001","timestamp":"2025-01-01T10:00:02.000Z","message":' + userJSON("an entry without an id") + "}",
		],
		run: (sm) => {
			sm.appendMessage(user("a child of an entry without an id"));
		},
	},
	"74-escaping": [
		H3("escaping"),
		msg("e0000001", null, 1, `{"role":"user","content":"${weird}","timestamp":1}`),
		msg("e0000002", "e0000001", 2, `{"role":"assistant","content":[{"type":"text","text":"${weird}"}],"api":"a","provider":"p","model":"m","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}`),
		`{"type":"custom","customType":"${weird}","data":{"b":1,"2":"two","1":"${weird}","\\u0061":"a","a":"dup"},"id":"e0000003","parentId":"e0000002","timestamp":"2025-01-01T10:00:03.000Z"}`,
		`{"type":"label","id":"e0000004","parentId":"e0000003","timestamp":"2025-01-01T10:00:04.000Z","targetId":"e0000001","label":"${weird}"}`,
		`{"type":"session_info","id":"e0000005","parentId":"e0000004","timestamp":"2025-01-01T10:00:05.000Z","name":"${weird}"}`,
		`{"type":"custom_message","customType":"x","content":"${weird}","display":true,"id":"e0000006","parentId":"e0000005","timestamp":"2025-01-01T10:00:06.000Z"}`,
		`{ "type" : "message" , "id":"e0000007","parentId":"e0000006","timestamp":"2025-01-01T10:00:07.000Z","message":{"role":"user","content":[{"type":"text","text":"spaced \\u2029"}],"timestamp":7} }`,
	],
};
// The same files as version 2, which pi rewrites: what JSON.stringify makes
// of them.
for (const name of ["60-js-numbers", "72-missing-fields", "74-escaping"]) {
	const [h, ...rest] = rawFiles[name];
	rawFiles[name.replace(/^(\d)(\d)/, (_, a, b) => `${+a + 2}${b}`) + "-v2"] = [h.replace('"version":3', '"version":2'), ...rest];
}
// Forks of odd files: pi's createBranchedSession and forkFrom.
const forkSources = ["60-js-numbers", "72-missing-fields", "74-escaping", "71-header-fields-v3"];

// Raw text appended to a legacy file after its entries (torn and corrupt lines).
const legacyTail = {
	"58-torn-last-line": { base: "02-chat-like", tail: '{"type":"message","id":"ffff0003","parentId":"ffff0002","timestamp":"2025-01' },
	"59-corrupt-middle": { base: "02-chat-like", middle: "this is not json" },
};
const chatLike = (id) => [
	{ type: "session", version: 3, id, timestamp: "2025-01-01T10:00:00.000Z", cwd: CWD },
	{ type: "message", id: "ffff0001", parentId: null, timestamp: "2025-01-01T10:00:01.000Z", message: user("hi") },
	{ type: "message", id: "ffff0002", parentId: "ffff0001", timestamp: "2025-01-01T10:00:02.000Z", message: assistant("hello") },
];

// logged wraps sm so that every call that changes the session is logged in
// ops as {op, args}: script.json, which the Go tests replay with the IDs and
// times pi used to write the same file byte for byte.
const loggedOps = new Set([
	"appendMessage", "appendThinkingLevelChange", "appendModelChange", "appendUsage", "appendCompaction",
	"appendCustomEntry", "appendSessionInfo", "appendCustomMessageEntry", "appendContextEdit", "appendLabelChange",
	"branch", "resetLeaf", "branchWithSummary",
]);
function logged(sm, ops) {
	return new Proxy(sm, {
		get(target, prop) {
			const v = target[prop];
			if (typeof v !== "function") return v;
			if (!loggedOps.has(prop)) return v.bind(target);
			return (...args) => {
				// undefined arguments are logged as null; trailing ones are dropped.
				while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
				ops.push({ op: prop, args: JSON.parse(JSON.stringify(args.map((a) => a ?? null))) });
				return v.apply(target, args);
			};
		},
	});
}

// attempt returns f(), or {error} when pi throws: its context builder reads
// entry.message.role of a message entry without a message.
function attempt(f) {
	try {
		return f();
	} catch (e) {
		return { error: String(e) };
	}
}

// observe describes what pi sees in an opened session.
function observe(sm) {
	const entries = sm.getEntries();
	const contexts = entries.map((e) => attempt(() => buildSessionContext(entries, e.id)));
	const labels = {};
	for (const e of entries) {
		const l = sm.getLabel(e.id);
		if (l !== undefined) labels[e.id] = l;
	}
	const tree = (nodes) => nodes.map((n) => ({ id: n.entry.id, children: tree(n.children) }));
	return {
		header: sm.getHeader(),
		leafId: sm.getLeafId(),
		name: sm.getSessionName() ?? null,
		entries: entries.map((e) => ({ id: e.id, parentId: e.parentId, type: e.type })),
		labels,
		branch: sm.getBranch().map((e) => e.id),
		tree: tree(sm.getTree()),
		context: attempt(() => sm.buildSessionContext()),
		llm: attempt(() => convertToLlm(sm.buildSessionContext().messages)),
		contexts,
	};
}

const jsonl = (entries) => entries.map((e) => JSON.stringify(e)).join("\n") + "\n";

function record(outdir) {
	const scratch = mkdtempSync(join(tmpdir(), "pi-sessions-"));
	try {
		for (const [name, h] of Object.entries(histories)) {
			const run = typeof h === "function" ? h : h.run;
			const dir = join(scratch, name);
			const sm = h.open
				? SessionManager.open(join(dir, "missing.jsonl"))
				: SessionManager.create(CWD, dir, typeof h === "function" ? undefined : h.options);
			const ops = [];
			run(logged(sm, ops));
			save(outdir, name, sm.getSessionFile());
			writeFileSync(join(outdir, name, "script.json"), JSON.stringify({ open: !!h.open, options: h.options ?? null, ops }) + "\n");
		}
		// createBranchedSession and forkFrom: new files from an existing one.
		{
			const sm = SessionManager.create(CWD, join(scratch, "fork"));
			const ids = chat(sm, 2);
			sm.appendLabelChange(ids[0], "kept label");
			sm.appendCompaction("Summary.", ids[2], 100);
			sm.branch(ids[1]);
			chat(sm, 1, "alt");
			const source = sm.getSessionFile();
			save(outdir, "42-source-for-forks", source);
			const leaf = sm.getEntries().find((e) => e.type === "compaction").id;
			const branched = SessionManager.open(source);
			save(outdir, "43-branched-session", branched.createBranchedSession(leaf));
			const forked = SessionManager.forkFrom(source, "/work/other", join(scratch, "forked"));
			save(outdir, "44-fork-from", forked.getSessionFile());
		}
		for (const [name, entries] of Object.entries(legacy)) {
			saveLegacy(outdir, scratch, name, jsonl(entries));
		}
		for (const [name, f] of Object.entries(rawFiles)) {
			const lines = Array.isArray(f) ? f : f.lines;
			saveLegacy(outdir, scratch, name, lines.join("\n") + "\n", f.run);
		}
		for (const [i, name] of forkSources.entries()) {
			const source = join(scratch, name + ".jsonl");
			const src = SessionManager.open(source);
			const leaf = src.getEntries().filter((e) => e.id).at(-1).id;
			const n = 100 + 2 * i;
			const branchedName = `${n}-fork-${name.slice(3)}-branched`;
			save(outdir, branchedName, SessionManager.open(source).createBranchedSession(leaf));
			writeFileSync(join(outdir, branchedName, "fork.json"), JSON.stringify({ source: name, kind: "branched", leaf }) + "\n");
			const fromName = `${n + 1}-fork-${name.slice(3)}-from`;
			save(outdir, fromName, SessionManager.forkFrom(source, "/work/other", join(scratch, "forked-" + name)).getSessionFile());
			writeFileSync(join(outdir, fromName, "fork.json"), JSON.stringify({ source: name, kind: "from" }) + "\n");
		}
		for (const [name, t] of Object.entries(legacyTail)) {
			const lines = chatLike(name).map((e) => JSON.stringify(e));
			if (t.middle) lines.splice(2, 0, t.middle);
			let text = lines.join("\n") + "\n";
			if (t.tail) text += t.tail;
			saveLegacy(outdir, scratch, name, text);
		}
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}

function save(outdir, name, file) {
	const dir = join(outdir, name);
	mkdirSync(dir, { recursive: true });
	copyFileSync(file, join(dir, "session.jsonl"));
	writeFileSync(join(dir, "expect.json"), JSON.stringify(observe(SessionManager.open(file))) + "\n");
}

function saveLegacy(outdir, scratch, name, text, run) {
	const dir = join(outdir, name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "input.jsonl"), text);
	const file = join(scratch, name + ".jsonl");
	writeFileSync(file, text);
	const sm = SessionManager.open(file); // migrates and rewrites, or repairs a torn tail
	if (run) {
		const ops = [];
		run(logged(sm, ops));
		writeFileSync(join(dir, "script.json"), JSON.stringify({ open: true, options: null, ops }) + "\n");
	}
	copyFileSync(file, join(dir, "session.jsonl"));
	writeFileSync(join(dir, "expect.json"), JSON.stringify(observe(sm)) + "\n");
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "record") {
	record(args[0]);
	console.log(readdirSync(args[0]).length + " histories");
} else if (mode === "check") {
	const out = {};
	for (const file of args) {
		try {
			out[file] = observe(SessionManager.open(file));
		} catch (e) {
			out[file] = { error: String(e) };
		}
	}
	process.stdout.write(JSON.stringify(out));
} else {
	console.error("usage: node record.mjs record <outdir> | check <file>...");
	process.exit(2);
}
