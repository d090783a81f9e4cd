// pi.mjs times pi-coding-agent's own tools on the cases of
// codingtools/testdata/bench_cases.json, as BenchmarkTools times the Go
// ones. run.sh copies it next to the node_modules it installs and runs it:
//
//   node pi.mjs CASES TREE LSDIR READFILE REPS OUTDIR
//
// For each case: one warm-up call, then REPS timed calls; prints
// "case <name> <median ms>" and writes the last result's text to
// OUTDIR/<name>.txt.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFindTool, createGrepTool, createLsTool, createReadTool } from "@earendil-works/pi-coding-agent";

const [casesFile, tree, lsDir, readFile, repsArg, outDir] = process.argv.slice(2);
const reps = Number(repsArg);
const tools = { grep: createGrepTool(tree), find: createFindTool(tree), ls: createLsTool(tree), read: createReadTool(tree) };
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
for (const c of cases) {
	const args = JSON.parse(JSON.stringify(c.args).replaceAll("$LSDIR", lsDir).replaceAll("$READFILE", readFile));
	const tool = tools[c.tool];
	let result = await tool.execute("bench", args);
	const times = [];
	for (let i = 0; i < reps; i++) {
		const start = process.hrtime.bigint();
		result = await tool.execute("bench", args);
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	times.sort((a, b) => a - b);
	console.log(`case ${c.name} ${times[Math.floor(times.length / 2)].toFixed(3)}`);
	writeFileSync(join(outDir, `${c.name}.txt`), result.content.map((b) => b.text ?? "").join(""));
}
