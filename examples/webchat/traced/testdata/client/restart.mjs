// Drives one thread of the composed agent with @ag-ui/client's HttpAgent
// across a server restart, and prints what the client saw as one JSON
// object on stdout: hold_restart_test.go asserts on it.
// Usage: node restart.mjs URL
import { HttpAgent, buildResumeArray } from "@ag-ui/client";

const url = process.argv[2];

// run starts one run and records its events, its error and the messages
// the client holds after it.
async function run(agent, params = {}) {
  const events = [];
  let error = null;
  try {
    await agent.runAgent(params, {
      onEvent: ({ event }) => events.push(event),
      onRunFailed: ({ error: e }) => (error = String(e && e.message ? e.message : e)),
    });
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  return { types: events.map((e) => e.type), events, error, messages: structuredClone(agent.messages) };
}

const agent = new HttpAgent({ url: `${url}/agent`, threadId: "notes" });
agent.addMessage({ id: "u-hello", role: "user", content: "hello" });
const hello = await run(agent);
agent.addMessage({ id: "u-write", role: "user", content: "write the notes" });
const held = await run(agent);
const before = structuredClone(agent.messages);
const interrupts = structuredClone(agent.pendingInterrupts);
await (await fetch(`${url}/restart`)).text();
const answers = Object.fromEntries(agent.pendingInterrupts.map((i) => [i.id, { status: "resolved", payload: { approved: true } }]));
const resumed = await run(agent, { resume: buildResumeArray(agent.pendingInterrupts, answers) });
process.stdout.write(JSON.stringify({ hello, held, before, interrupts, resumed }));
