// Drives an agui.Handler with @ag-ui/client's HttpAgent, one scenario per
// thread, and prints what the client saw as one JSON object on stdout:
// client_test.go asserts on it. Usage: node client.mjs URL
import { HttpAgent } from "@ag-ui/client";

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

// run starts one run of agent and records its events, its outcome and the
// messages the client holds after it.
async function run(agent, params = {}, onEvent = () => {}) {
  const events = [];
  let error = null;
  let result = null;
  try {
    result = await agent.runAgent(params, {
      onEvent: ({ event }) => {
        events.push(event);
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

{
  const agent = newAgent("disconnect", "start the long job");
  report.disconnect = await run(agent, {}, (event, a) => {
    if (event.type === "TOOL_CALL_END") a.abortRun();
  });
}

process.stdout.write(JSON.stringify(report));
