// record.mjs runs pi-coding-agent's own tools over a copy of ../corpus and
// writes every call and its result to ../pi_calls.json, which the Go replay
// test (replay_test.go) runs again against the Go tools.
//
// Usage (Node >= 22; rg and fd on PATH, see README.md next to this file):
//   npm install && node record.mjs
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBashTool, createEditTool, createFindTool, createGrepTool, createLsTool, createReadTool, createWriteTool } from "@earendil-works/pi-coding-agent";

// createAllTools is not exported from the package root; this is its set without powershell.
const createAllTools = (cwd) => ({
	read: createReadTool(cwd),
	bash: createBashTool(cwd),
	edit: createEditTool(cwd),
	write: createWriteTool(cwd),
	grep: createGrepTool(cwd),
	find: createFindTool(cwd),
	ls: createLsTool(cwd),
});

const here = dirname(fileURLToPath(import.meta.url));

// prepareCorpus copies the corpus to a fresh directory: files named
// "gitignore" become ".gitignore" (so this repository's git does not obey
// them) and an empty .git directory makes the copy a repository root.
export function prepareCorpus() {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-corpus-")));
	cpSync(join(here, "..", "corpus"), root, { recursive: true });
	const rename = (dir) => {
		for (const name of readdirSync(dir)) {
			const p = join(dir, name);
			if (statSync(p).isDirectory()) rename(p);
			else if (name === "gitignore") renameSync(p, join(dir, ".gitignore"));
		}
	};
	rename(root);
	mkdirSync(join(root, ".git"));
	mkdirSync(join(root, "emptydir"));
	return root;
}

const calls = [];
const add = (tool, args, name) => calls.push({ name: name ?? `${tool} ${JSON.stringify(args)}`.slice(0, 120), tool, args });
// addAt is add for tools whose working directory is "link", a symbolic
// link to the corpus copy next to it ("$ROOT-link").
const addAt = (cwd, tool, args, name) => calls.push({ name: name ?? `${cwd}: ${tool} ${JSON.stringify(args)}`.slice(0, 120), tool, args, cwd });

// ls
for (const path of [undefined, ".", "src", "src/lib", "text", "many", ".hidden", "emptydir", "ünïcödé", "with space", "missing", "README.md", "@src", "./src/../text"]) add("ls", path === undefined ? {} : { path });
for (const limit of [0, 1, 5, 29, 30, 31]) add("ls", { path: "many", limit });
add("ls", { limit: 3 });
add("ls", { path: "accents" });

// read
for (const path of ["README.md", "src/main.go", "text/crlf.txt", "text/bom.txt", "text/bomcrlf.txt", "text/cr_only.txt", "text/noeol.txt", "text/empty.txt", "text/blank_end.txt", "text/unicode.txt", "ünïcödé/файл.txt", "日本語.md", "with space/a file.txt", "@README.md", "text/long_line.txt", "text/first_long.txt", "text/many_lines.txt", "text/wide_bytes.txt", "bin/blob.bin", "bin/late.bin", "img/pixel.png", "img/notpng.png", "img/anim.gif", "missing.txt", "src", ".env", "debug.log"]) add("read", { path });
for (const [offset, limit] of [[1, 1], [2, 1], [1, 2], [3, undefined], [undefined, 2], [4, 10], [5, 1], [6, 1], [100, 1]]) add("read", { path: "README.md", offset, limit });
for (const [offset, limit] of [[1990, 20], [2000, undefined], [2001, undefined], [2999, undefined], [3000, 1], [3001, undefined], [10, 5], [undefined, 2500], [1, 0]]) add("read", { path: "text/many_lines.txt", offset, limit });
for (const [offset, limit] of [[2, 1], [3, undefined], [1, 1]]) add("read", { path: "text/long_line.txt", offset, limit });
for (const [offset, limit] of [[560, undefined], [1199, undefined], [1, 10]]) add("read", { path: "text/wide_bytes.txt", offset, limit });
add("read", { path: "text/blank_end.txt", offset: 3 });
add("read", { path: "text/blank_end.txt", offset: 5 });
add("read", { path: "text/blank_end.txt", offset: 6 });
for (const [offset, limit] of [[undefined, -1], [2, -1], [3, -2], [undefined, -100], [5, -1], [4, -3]]) add("read", { path: "README.md", offset, limit });
add("read", { path: "text/many_lines.txt", offset: 10, limit: -2990 });
add("read", { path: "img/corrupt.png" });

// grep
const g = (args) => add("grep", args);
g({ pattern: "TODO" });
g({ pattern: "todo" });
g({ pattern: "todo", ignoreCase: true });
g({ pattern: "TODO", limit: 5 });
g({ pattern: "TODO", limit: 1 });
g({ pattern: "TODO", limit: 0 });
g({ pattern: "TODO", path: "src" });
g({ pattern: "TODO", path: "src/main.go" });
g({ pattern: "hello", path: "src/main.go", context: 1 });
g({ pattern: "hello", path: "src", context: 2 });
g({ pattern: "return", path: "src", context: 1 });
g({ pattern: "TODO", glob: "*.txt" });
g({ pattern: "TODO", glob: "src/**/*.txt" });
g({ pattern: "TODO", glob: "./src/**" });
g({ pattern: "TODO", glob: "!*.txt" });
g({ pattern: "TODO", glob: "*.{go,ts}" });
g({ pattern: "TODO", path: "sub" });
g({ pattern: "TODO", path: "sub/secret.txt" });
g({ pattern: "hidden" });
g({ pattern: "SECRET" });
g({ pattern: "f(" , literal: true });
g({ pattern: "a + b", literal: true });
g({ pattern: "fu?nc \\w+\\(" });
g({ pattern: "^package" });
g({ pattern: "line \\d+0 TODO", path: "text/many_lines.txt" });
g({ pattern: "line", path: "text/many_lines.txt" });
g({ pattern: "line", path: "text/many_lines.txt", limit: 1000 });
g({ pattern: "line 1\\d\\d\\b", path: "text/many_lines.txt", context: 1, limit: 3 });
g({ pattern: "NEEDLE" });
g({ pattern: "abc", path: "text/long_line.txt" });
g({ pattern: "é", path: "text/wide_bytes.txt", limit: 2000 });
g({ pattern: "second", path: "text" });
g({ pattern: "nomatchanywhere" });
g({ pattern: "TODO", path: "missing" });
g({ pattern: "(unclosed" });
g({ pattern: "TODO", path: "ünïcödé" });
g({ pattern: "日本" });
g({ pattern: "Upper", ignoreCase: false });
g({ pattern: "guide", ignoreCase: true });
g({ pattern: "TODO", path: "bin" });
g({ pattern: "TODO", path: "bin/late.bin" });
g({ pattern: "quoted", path: "text" });
g({ pattern: "first", path: "text/crlf.txt" });
g({ pattern: "with bom", path: "text" });
g({ pattern: "file \\d", path: "many", limit: 3, context: 1 });
g({ pattern: "TODO", path: "debug.log" });
g({ pattern: "TODO", glob: "*.log" });
g({ pattern: "TODO", glob: "**/*.tmp" });
g({ pattern: "same", path: "text/dupes.txt", context: 1 });
g({ pattern: "first\\nsecond" });
g({ pattern: "first\nsecond", literal: true });
g({ pattern: "x[\\n]" });
g({ pattern: "line\\s+2" , path: "text/many_lines.txt", limit: 2 });

// find
const f = (args) => add("find", args);
for (const pattern of ["*", "*.go", "*.txt", "*.md", "*.MD", "**/*.txt", "src/**", "src/*.go", "src/**/*.txt", "./src/*.go", "**/src/*.go", "*.log", "*.tmp", ".env", ".*", "*config*", "many/*", "f0*", "nothing*", "*.{go,ts}", "*.png", "файл*", "*space*", "Docs/*", "docs/*", "lib", "src", "**/lib/*", "*.bin", "[fg]*.txt"]) f({ pattern });
f({ pattern: "*.txt", path: "sub" });
f({ pattern: "*", path: "src" });
f({ pattern: "*.txt", path: "many", limit: 5 });
f({ pattern: "*.txt", path: "many", limit: 30 });
f({ pattern: "*.txt", path: "many", limit: 0 });
f({ pattern: "*", path: "missing" });
f({ pattern: "*.go", path: "src/main.go" });
f({ pattern: "*", path: ".hidden" });
f({ pattern: "*", limit: 10 });

// write and edit
const w = (args) => add("write", args);
const e = (args, name) => add("edit", args, name);
w({ path: "new/dir/file.txt", content: "alpha\nbeta\ngamma\n" });
add("read", { path: "new/dir/file.txt" });
w({ path: "new/dir/file.txt", content: "overwritten\n" });
add("read", { path: "new/dir/file.txt" });
w({ path: "@new/at.txt", content: "at prefix" });
add("read", { path: "new/at.txt" });
w({ path: "new/empty.txt", content: "" });
w({ path: "new/unicode é.txt", content: "ünïcode 😀\n" });
add("ls", { path: "new" });
e({ path: "src/util.go", edits: [{ oldText: "return a + b", newText: "return b + a" }] });
add("read", { path: "src/util.go" });
e({ path: "src/util.go", edits: [{ oldText: "func add", newText: "func plus" }, { oldText: "func sub", newText: "func minus" }] });
add("read", { path: "src/util.go" });
e({ path: "src/util.go", edits: [{ oldText: "does not exist", newText: "x" }] });
e({ path: "src/util.go", edits: [{ oldText: "nope", newText: "x" }, { oldText: "minus", newText: "y" }] });
e({ path: "src/util.go", edits: [{ oldText: "int", newText: "int64" }] });
e({ path: "src/util.go", edits: [{ oldText: "plus", newText: "p" }, { oldText: "int", newText: "i" }] });
e({ path: "src/util.go", edits: [{ oldText: "", newText: "x" }] });
e({ path: "src/util.go", edits: [{ oldText: "plus", newText: "p" }, { oldText: "", newText: "x" }] });
e({ path: "src/util.go", edits: [{ oldText: "func plus(a", newText: "x" }, { oldText: "plus(a, b", newText: "y" }] });
e({ path: "src/util.go", edits: [{ oldText: "plus", newText: "plus" }] });
e({ path: "src/util.go", edits: [{ oldText: "plus", newText: "plus" }, { oldText: "minus", newText: "minus" }] });
e({ path: "src/util.go", edits: [] });
e({ path: "missing.go", edits: [{ oldText: "a", newText: "b" }] });
e({ path: "text/crlf.txt", edits: [{ oldText: "second line\nthird", newText: "2nd line\nline 2.5\nthird" }] });
add("bash", { command: "od -c text/crlf.txt | head -5" });
e({ path: "text/bom.txt", edits: [{ oldText: "first with bom", newText: "first still bom" }] });
add("bash", { command: "head -c 8 text/bom.txt | od -An -tx1" });
e({ path: "text/bomcrlf.txt", edits: [{ oldText: "beta", newText: "BETA\nbeta2" }] });
add("bash", { command: "od -c text/bomcrlf.txt" });
e({ path: "text/cr_only.txt", edits: [{ oldText: "two", newText: "2\n2b" }] });
add("bash", { command: "od -c text/cr_only.txt" });
e({ path: "text/trailing_ws.txt", edits: [{ oldText: "func f() {\n\treturn \"quoted\" - dash", newText: "func g() {\n\treturn 1" }] }, "edit fuzzy quotes dashes trailing ws");
add("read", { path: "text/trailing_ws.txt" });
e({ path: "text/dupes.txt", edits: [{ oldText: "same", newText: "x" }] });
e({ path: "text/dupes.txt", edits: [{ oldText: "same\nother", newText: "same\nOTHER" }] });
add("read", { path: "text/dupes.txt" });
e({ path: "text/many_lines.txt", edits: [{ oldText: "line 1500\n", newText: "line 1500 edited\n" }, { oldText: "line 1510 TODO\n", newText: "" }] });
e({ path: "text/many_lines.txt", edits: [{ oldText: "line 2\n", newText: "line two\n" }, { oldText: "line 2999\n", newText: "line 2999 (end)\n" }] });
e({ path: "text/many_lines.txt", edits: [{ oldText: "line 100 TODO\nline 101\nline 102\n", newText: "replaced block\n" }] });
e({ path: "text/noeol.txt", edits: [{ oldText: "at end", newText: "at the end\nand more" }] });
add("read", { path: "text/noeol.txt" });
e({ path: "README.md", edits: JSON.stringify([{ oldText: "# Demo repo", newText: "# Demo repository" }]) }, "edit edits as JSON string");
e({ path: "README.md", edits: { oldText: "TODO: write docs", newText: "Docs: done" } }, "edit edits as single object");
e({ path: "README.md", oldText: "small project", newText: "tiny project" }, "edit legacy oldText/newText");
e({ path: "README.md", edits: JSON.stringify({ oldText: "tiny", newText: "wee" }) }, "edit single object as JSON string");
add("read", { path: "README.md" });
e({ path: "new/dir/file.txt", edits: [{ oldText: "overwritten", newText: "edited" }] });
e({ path: "日本語.md", edits: [{ oldText: "見出し", newText: "タイトル" }] });
add("read", { path: "日本語.md" });
e({ path: "src/main.go", edits: [{ oldText: "\tfmt.Println(\"hello\")\n\tfmt.Println(\"hello\")", newText: "\tfmt.Println(\"bye\")" }] });
w({ path: "README.md/x.txt", content: "x" });
w({ path: "README.md/deeper/x.txt", content: "x" });

// bash
const b = (command, timeout) => add("bash", timeout === undefined ? { command } : { command, timeout });
b("echo hello");
b("echo out; echo err 1>&2");
b("printf 'no newline'");
b("true");
b("exit 3");
b("echo before; exit 7");
b("false");
b("pwd");
b("ls src");
b("cat text/unicode.txt");
b("seq 1 2500");
b("seq 1 3000 | sed 's/$/ padding padding padding padding/'");
b("head -c 60000 /dev/zero | tr '\\0' 'a'");
b("head -c 70000 /dev/zero | tr '\\0' 'b'; echo; echo tail");
b("seq 1 10; exit 2");
b("printf 'é%.0s' $(seq 1 30000)");
b("sleep 5; echo late", 1);
b("echo started; sleep 5", 1);
b("kill -9 $$");
b("echo $((1+1))");
b("cd src && ls");
b("for i in 1 2 3; do echo line $i; done");
b("printf 'a\\r\\nb\\r\\n'");
b("printf '\\x00\\x01bin\\n'");
b("echo hi", 0);
b("echo hi", -1);
b('echo "${PI_SESSION_ID-unset} ${PI_SESSION_FILE-unset} ${PI_PROVIDER-unset} ${PI_MODEL-unset} ${PI_REASONING_LEVEL-unset}"');
b('d=${PI_CODING_AGENT_DIR:-$HOME/.pi/agent}; [ "${PATH%%:*}" = "$d/bin" ] && echo bin first');
addAt("link", "bash", { command: "pwd" });
addAt("link", "bash", { command: "cd . && pwd && /bin/pwd" });

writeFileSync(join(here, "calls.count"), String(calls.length) + "\n");

// Variables pi's bash removes from the environment it inherits.
Object.assign(process.env, { PI_SESSION_ID: "s", PI_SESSION_FILE: "f", PI_PROVIDER: "p", PI_MODEL: "m", PI_REASONING_LEVEL: "r" });
const root = prepareCorpus();
symlinkSync(root, root + "-link");
const toolsAt = { "": createAllTools(root), link: createAllTools(root + "-link") };
const scrub = (value) => JSON.parse(JSON.stringify(value ?? null).replaceAll(root, "$ROOT").replace(/\/tmp\/pi-bash-[0-9a-f]+\.log/g, "$FULL_OUTPUT"));
const out = [];
let i = 0;
for (const call of calls) {
	const tool = toolsAt[call.cwd ?? ""][call.tool];
	const args = tool.prepareArguments ? tool.prepareArguments(structuredClone(call.args)) : call.args;
	const rec = { name: call.name, tool: call.tool, args: call.args, ...(call.cwd ? { cwd: call.cwd } : {}) };
	try {
		const result = await tool.execute(`call-${i++}`, args, undefined, undefined);
		rec.result = { content: result.content, details: result.details ?? null, isError: result.isError ?? false };
		if (call.tool === "read") rec.result.structuredContent = result.structuredContent;
		if (call.tool === "bash") {
			const { wall_time_seconds: _t, ...rest } = result.structuredContent ?? {};
			rec.result.structuredContent = rest;
		}
	} catch (err) {
		rec.error = err instanceof Error ? err.message : String(err);
	}
	out.push(scrub(rec));
}
const declarations = Object.values(createAllTools(root))
	.filter((t) => t.name !== "powershell")
	.map((t) => ({ name: t.name, label: t.label, description: t.description, parameters: t.parameters }));
writeFileSync(join(here, "..", "pi_calls.json"), JSON.stringify(out, null, 1) + "\n");
writeFileSync(join(here, "..", "pi_tools.json"), JSON.stringify(declarations, null, 1) + "\n");
rmSync(root, { recursive: true, force: true });
rmSync(root + "-link", { force: true });
console.log(`recorded ${out.length} calls`);
