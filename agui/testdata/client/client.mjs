// Drives an agui.Handler with @ag-ui/client's HttpAgent, one scenario per
// thread, and prints what the client saw as one JSON object on stdout:
// client_test.go asserts on it. Usage: node client.mjs URL
import { HttpAgent, buildResumeArray } from "@ag-ui/client";

const url = process.argv[2];

const confirmTool = {
  name: "confirm",
  description: "Ask the user to confirm an action.",
  parameters: {
    type: "object",
    properties: { question: { type: "string" } },
    required: ["question"],
  },
};

// run starts one run of agent and records its events, its outcome, the
// messages the client holds when the run's first step starts and those it
// holds after the run.
async function run(agent, params = {}, onEvent = () => {}) {
  const events = [];
  let error = null;
  let result = null;
  let atStep = null;
  try {
    result = await agent.runAgent(params, {
      onEvent: ({ event, messages }) => {
        events.push(event);
        if (event.type === "STEP_STARTED" && atStep === null) atStep = structuredClone(messages);
        onEvent(event, agent);
      },
      onRunFailed: ({ error: e }) => {
        error = String(e && e.message ? e.message : e);
      },
    });
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  return {
    types: events.map((e) => e.type),
    events,
    error,
    newMessages: result ? result.newMessages.length : 0,
    atStep,
    messages: structuredClone(agent.messages),
    state: structuredClone(agent.state),
  };
}

function newAgent(threadId, text) {
  const agent = new HttpAgent({ url, threadId });
  agent.addMessage({ id: `${threadId}-u1`, role: "user", content: text });
  return agent;
}

const report = {};

report.text = await run(newAgent("text", "hi"));
report.reasoning = await run(newAgent("reasoning", "why?"));
report.parallel = await run(newAgent("parallel", "weather in Paris and Rome?"));

{
  const agent = newAgent("frontend", "deploy, after asking me");
  const first = await run(agent, { tools: [confirmTool] });
  // Answer every call that has no result yet, as a front-end would.
  const answered = new Set(agent.messages.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  const calls = agent.messages.flatMap((m) => (m.role === "assistant" && m.toolCalls) || []);
  for (const c of calls) {
    if (!answered.has(c.id)) {
      const args = JSON.parse(c.function.arguments);
      agent.addMessage({ id: `answer-${c.id}`, role: "tool", toolCallId: c.id, content: `yes to: ${args.question}` });
    }
  }
  const second = await run(agent, { tools: [confirmTool] });
  report.frontend = { first, second };
}

report.state = await run(newAgent("state", "count"));

report.error = await run(newAgent("error", "fail please"));

// A front-end call the client never answers: it asks something else.
{
  const agent = newAgent("unanswered", "deploy, after asking me");
  const first = await run(agent, { tools: [confirmTool] });
  agent.addMessage({ id: "unanswered-u2", role: "user", content: "never mind, just say hi" });
  const second = await run(agent, { tools: [confirmTool] });
  report.unanswered = { first, second };
}

// A client that leaves while a tool runs (the tool's state snapshot tells
// it the tools started), then asks again on the same thread once the
// server has ended the run it left (GET /left answers then).
{
  const agent = new HttpAgent({ url: `${url}/?signal=left`, threadId: "disconnect" });
  agent.addMessage({ id: "disconnect-u1", role: "user", content: "start the long job" });
  const first = await run(agent, {}, (event, a) => {
    if (event.type === "STATE_SNAPSHOT") a.abortRun();
  });
  const left = await fetch(`${url}/left`);
  await left.text();
  agent.addMessage({ id: "disconnect-u2", role: "user", content: "are you there?" });
  const second = await run(agent);
  report.disconnect = { first, second };
}

// A history the client brings to a new thread, with a reasoning message.
{
  const agent = new HttpAgent({
    url,
    threadId: "history",
    initialMessages: [
      { id: "h-u0", role: "user", content: "earlier" },
      { id: "h-r1", role: "reasoning", content: "thinking earlier", encryptedValue: "sig-0" },
      { id: "h-a1", role: "assistant", content: "earlier answer" },
      { id: "h-u1", role: "user", content: "and now?" },
    ],
  });
  const first = await run(agent);
  agent.addMessage({ id: "h-u2", role: "user", content: "once more" });
  const second = await run(agent);
  report.history = { first, second };
}

// A server tool held for a person's decision: the run ends with an
// interrupt, the client refuses to run on without answering it, and its
// own resume API answers it with payload.
async function decide(threadId, payload) {
  const agent = newAgent(threadId, "deploy web and check Oslo");
  const first = await run(agent);
  const interrupts = structuredClone(agent.pendingInterrupts);
  let refused = null;
  try {
    await agent.runAgent({});
  } catch (e) {
    refused = String(e && e.message ? e.message : e);
  }
  const answers = Object.fromEntries(agent.pendingInterrupts.map((i) => [i.id, { status: "resolved", payload }]));
  const second = await run(agent, { resume: buildResumeArray(agent.pendingInterrupts, answers) });
  return { first, second, interrupts, refused, after: structuredClone(agent.pendingInterrupts) };
}

report.approve = await decide("approve", { approved: true, editedArgs: { service: "web", env: "staging" } });
report.deny = await decide("deny", { approved: false, reason: "not on a Friday" });

// A thread kept in a session file, whose server restarts (GET /restart
// makes a fresh handler on the same folder) between the interrupt and the
// resume: the client resumes with the messages and IDs it holds.
{
  const agent = new HttpAgent({ url: `${url}/sessions`, threadId: "restart" });
  agent.addMessage({ id: "restart-u1", role: "user", content: "deploy web and check Oslo" });
  const first = await run(agent);
  const before = structuredClone(agent.messages);
  const restarted = await fetch(`${url}/restart`);
  await restarted.text();
  const answers = Object.fromEntries(agent.pendingInterrupts.map((i) => [i.id, { status: "resolved", payload: { approved: true } }]));
  const second = await run(agent, { resume: buildResumeArray(agent.pendingInterrupts, answers) });
  report.restart = { first, second, before };
}

process.stdout.write(JSON.stringify(report));
