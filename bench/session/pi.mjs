// The pi side of run.sh: opens a session file with pi-coding-agent's
// SessionManager and builds the leaf's context, n times, printing the same
// lines as `go run ./bench/session time`.
//
//   node pi.mjs FILE [n]
//
// Run from a folder where @earendil-works/pi-coding-agent is installed
// (run.sh sets NODE_PATH).
import { SessionManager } from "@earendil-works/pi-coding-agent";

const [file, rounds = "5"] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
for (let i = 0; i < Number(rounds); i++) {
	const t0 = now();
	const sm = SessionManager.open(file);
	const t1 = now();
	const ctx = sm.buildSessionContext();
	const t2 = now();
	const heap = process.memoryUsage().heapUsed;
	console.log(`open ${(t1 - t0).toFixed(1)} context ${(t2 - t1).toFixed(1)} total ${(t2 - t0).toFixed(1)} messages ${ctx.messages.length} heap ${heap}`);
}
