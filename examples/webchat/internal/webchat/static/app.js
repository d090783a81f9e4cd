// The webchat page: plain JavaScript speaking AG-UI to /agent. It keeps
// the conversation as AG-UI messages (sent back whole with every run),
// applies the streamed events to them, and draws them.
"use strict";

const $ = (id) => document.getElementById(id);
const uuid = () => crypto.randomUUID();

// confirmTool is the page's front-end tool: the agent calls it, the page
// asks the user, and the answer goes back as the tool's result.
const confirmTool = {
  name: "confirm",
  description: "Ask the user to confirm an action in their browser. Answers 'confirmed' or 'declined'.",
  parameters: {
    type: "object",
    properties: { question: { type: "string", description: "The yes/no question to ask." } },
    required: ["question"],
  },
};

const chat = {
  threadId: uuid(),
  messages: [], // AG-UI messages
  notices: [], // {at: message count, text, error}
  pending: new Set(), // front-end calls waiting for the user
  interrupts: [], // AG-UI interrupts of the last run: held calls waiting for a decision
  decisions: {}, // interrupt ID -> resume payload, until every interrupt has one
  denied: new Set(), // IDs of the held tool calls the user denied or left undecided
  streaming: new Set(), // IDs of messages being streamed
  expanded: new Set(), // reasoning the user opened
  controller: null,
};

// ---- running the agent ------------------------------------------------

// run starts a run of the thread; resume, when given, answers the
// interrupts of the last one (RunAgentInput.resume).
async function run(resume) {
  const controller = new AbortController();
  chat.controller = controller;
  setRunning(true, "Thinking…");
  const body = {
    threadId: chat.threadId, runId: uuid(), state: {}, messages: chat.messages,
    tools: [confirmTool], context: [], forwardedProps: {},
  };
  if (resume) body.resume = resume;
  try {
    let resp;
    for (let attempt = 0; ; attempt++) {
      resp = await fetch("agent", {
        method: "POST", signal: controller.signal, body: JSON.stringify(body),
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      });
      // 409: the previous run (stopped a moment ago) is still winding down.
      if (resp.status !== 409 || attempt >= 20) break;
      await new Promise((r) => setTimeout(r, 150));
    }
    if (!resp.ok) {
      const err = await resp.json().catch(() => ({ error: resp.statusText }));
      throw new Error(err.error || `HTTP ${resp.status}`);
    }
    await readEvents(resp.body, apply);
  } catch (e) {
    if (e.name === "AbortError") notice("Stopped.");
    else notice(e.message, true);
  } finally {
    chat.streaming.clear();
    chat.controller = null;
    const waiting = chat.pending.size > 0 || chat.interrupts.length > 0;
    setRunning(false, waiting ? "Waiting for your answer…" : "");
    draw();
  }
}

// readEvents reads a server-sent event stream, one JSON event per data line.
async function readEvents(stream, onEvent) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line.startsWith("data:")) onEvent(JSON.parse(line.slice(5).trim()));
    }
  }
}

// ---- applying AG-UI events ----------------------------------------------

function message(id, role) {
  let m = chat.messages.find((x) => x.id === id);
  if (!m) {
    m = { id, role, content: "" };
    chat.messages.push(m);
  }
  return m;
}

function toolCall(id) {
  for (const m of chat.messages) for (const c of m.toolCalls || []) if (c.id === id) return c;
  return null;
}

function apply(ev) {
  switch (ev.type) {
    case "TEXT_MESSAGE_START":
      message(ev.messageId, ev.role || "assistant");
      chat.streaming.add(ev.messageId);
      break;
    case "TEXT_MESSAGE_CONTENT":
      message(ev.messageId, "assistant").content += ev.delta;
      break;
    case "TEXT_MESSAGE_END":
      chat.streaming.delete(ev.messageId);
      break;
    case "REASONING_MESSAGE_START":
      message(ev.messageId, "reasoning");
      chat.streaming.add(ev.messageId);
      status("Reasoning…");
      break;
    case "REASONING_MESSAGE_END":
      chat.streaming.delete(ev.messageId);
      break;
    case "REASONING_MESSAGE_CONTENT":
      message(ev.messageId, "reasoning").content += ev.delta;
      break;
    case "REASONING_ENCRYPTED_VALUE": {
      const m = chat.messages.find((x) => x.id === ev.entityId);
      const target = m || toolCall(ev.entityId);
      if (target) target.encryptedValue = ev.encryptedValue;
      break;
    }
    case "TOOL_CALL_START": {
      const parent = message(ev.parentMessageId || uuid(), "assistant");
      parent.toolCalls = parent.toolCalls || [];
      parent.toolCalls.push({ id: ev.toolCallId, type: "function", function: { name: ev.toolCallName, arguments: "" } });
      status(`Calling ${ev.toolCallName}…`);
      break;
    }
    case "TOOL_CALL_ARGS":
      toolCall(ev.toolCallId).function.arguments += ev.delta;
      break;
    case "TOOL_CALL_RESULT":
      chat.messages.push({ id: ev.messageId, role: "tool", toolCallId: ev.toolCallId, content: ev.content });
      break;
    case "MESSAGES_SNAPSHOT":
      chat.messages = ev.messages;
      break;
    case "RUN_FINISHED":
      for (const id of (ev.outcome && ev.outcome.pendingToolCallIds) || []) chat.pending.add(id);
      if (ev.outcome && ev.outcome.type === "cancelled") notice("The run was cancelled.");
      if (ev.outcome && ev.outcome.type === "interrupt") chat.interrupts = ev.outcome.interrupts;
      break;
    case "RUN_ERROR":
      notice(ev.message, true);
      break;
    case "STEP_STARTED":
      status("Thinking…");
      break;
  }
  draw();
}

// answer sends the user's answer to a front-end call and resumes the run.
function answer(callId, confirmed) {
  chat.pending.delete(callId);
  chat.messages.push({ id: uuid(), role: "tool", toolCallId: callId, content: confirmed ? "confirmed" : "declined" });
  run();
}

// decide records the user's decision on an interrupt; once every
// interrupt of the run is decided, the next run resumes with them all.
function decide(interruptId, payload) {
  chat.decisions[interruptId] = payload;
  if (!chat.interrupts.every((i) => chat.decisions[i.id])) {
    draw();
    return;
  }
  const resume = chat.interrupts.map((i) => ({ interruptId: i.id, status: "resolved", payload: chat.decisions[i.id] }));
  for (const i of chat.interrupts) if (!chat.decisions[i.id].approved) chat.denied.add(i.toolCallId);
  chat.interrupts = [];
  chat.decisions = {};
  run(resume);
}

// cancelInterrupts answers every open interrupt as cancelled: the user
// moved on without deciding (the calls are denied).
function cancelInterrupts() {
  const resume = chat.interrupts.map((i) => ({ interruptId: i.id, status: "cancelled" }));
  for (const i of chat.interrupts) chat.denied.add(i.toolCallId);
  chat.interrupts = [];
  chat.decisions = {};
  return resume.length > 0 ? resume : undefined;
}

// drawApproval is the card of a held call: what it will do, and Approve
// or Deny with a reason.
function drawApproval(i) {
  const card = el("div", "approval");
  const meta = i.metadata || {};
  card.append(el("div", "question", i.message || "Approve this call?"));
  if (meta.reason) card.append(el("div", "why", meta.reason));
  if (meta.touches && meta.touches.length) card.append(el("div", "touches", "Touches: " + meta.touches.join(", ")));
  const decided = chat.decisions[i.id];
  if (decided) {
    card.append(el("div", "why", decided.approved ? "Approved: waiting for the other decisions…" : "Denied: waiting for the other decisions…"));
    return card;
  }
  const reason = el("input", "reason");
  reason.id = "deny-reason";
  reason.placeholder = "Reason (for a denial)";
  const yes = el("button", "ok", "Approve");
  yes.id = "approve";
  yes.onclick = () => decide(i.id, { approved: true });
  const no = el("button", "danger", "Deny");
  no.id = "deny";
  no.onclick = () => decide(i.id, { approved: false, reason: reason.value.trim() || undefined });
  const row = el("div", "buttons");
  row.append(yes, no, reason);
  card.append(row);
  return card;
}

// ---- drawing ------------------------------------------------------------

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// markdown renders the little Markdown models write (code blocks, inline
// code, bold, italics, headings, links) as HTML, escaping everything else.
function markdown(src) {
  const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const inline = (s) => esc(s)
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(])\*([^*\n]+)\*/g, "$1<em>$2</em>")
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>')
    .replace(/^#{1,6} (.*)$/gm, "<strong>$1</strong>");
  return src.split(/```/).map((part, i) => {
    if (i % 2 === 0) return inline(part);
    const code = part.replace(/^[\w-]*\n/, "");
    return `<pre class="code"><code>${esc(code)}</code></pre>`;
  }).join("");
}

function text(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n");
  return "";
}

function prettyArgs(s) {
  try { return JSON.stringify(JSON.parse(s), null, 2); } catch { return s; }
}

const wrench = '<svg viewBox="0 0 24 24" width="15" height="15" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z"/></svg>';

function drawToolCall(c) {
  const box = el("div", "tool");
  box.dataset.toolCallId = c.id;
  const head = el("div", "head");
  const icon = el("span", "icon");
  icon.innerHTML = wrench;
  head.append(icon, el("span", "name", c.function.name));
  const result = chat.messages.find((m) => m.role === "tool" && m.toolCallId === c.id);
  const state = el("span", "state");
  if (result) {
    // A call the user denied did not fail: its result is the denial.
    const outcome = chat.denied.has(c.id) ? "denied" : result.error ? "failed" : "done";
    state.textContent = outcome;
    state.classList.add(outcome);
  } else {
    const held = chat.interrupts.some((i) => i.toolCallId === c.id);
    state.textContent = held ? "needs your approval" : chat.pending.has(c.id) ? "waiting for you" : "running…";
  }
  head.append(state);
  box.append(head, el("div", "label", "arguments"), el("pre", "args", prettyArgs(c.function.arguments)));
  if (result) box.append(el("div", "label", "result"), el("pre", "result", text(result.content)));
  if (!result && chat.pending.has(c.id) && c.function.name === "confirm") {
    const q = el("div", "confirm");
    let question = "Confirm?";
    try { question = JSON.parse(c.function.arguments).question || question; } catch {}
    q.append(el("div", "question", question));
    const yes = el("button", "ok", "Confirm");
    yes.id = "confirm-yes";
    yes.onclick = () => answer(c.id, true);
    const no = el("button", "ghost", "Decline");
    no.id = "confirm-no";
    no.onclick = () => answer(c.id, false);
    q.append(yes, no);
    box.append(q);
  }
  const held = !result && chat.interrupts.find((i) => i.toolCallId === c.id);
  if (held) box.append(drawApproval(held));
  return box;
}

function draw() {
  const log = $("log");
  const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  log.replaceChildren();
  if (chat.messages.length === 0 && chat.notices.length === 0) log.append(emptyState);
  const drawNotices = (at) => {
    for (const n of chat.notices) if (n.at === at) log.append(el("div", n.error ? "notice error" : "notice", n.text));
  };
  chat.messages.forEach((m, i) => {
    drawNotices(i);
    if (m.role === "user") {
      const row = el("div", "row user");
      row.append(el("div", "bubble", text(m.content)));
      log.append(row);
    } else if (m.role === "reasoning") {
      const d = el("details", "thinking");
      const live = chat.streaming.has(m.id);
      d.open = live || chat.expanded.has(m.id);
      d.append(el("summary", "", live ? "Thinking…" : m.content ? "Thought" : "Thought (encrypted)"), el("div", "text", m.content));
      d.addEventListener("toggle", () => {
        if (live) return; // opened by the page while streaming
        if (d.open) chat.expanded.add(m.id);
        else chat.expanded.delete(m.id);
      });
      log.append(d);
    } else if (m.role === "assistant") {
      if (m.content) {
        const row = el("div", "row assistant");
        const b = el("div", "bubble");
        b.innerHTML = markdown(m.content);
        if (chat.streaming.has(m.id)) b.classList.add("streaming");
        row.append(b);
        log.append(row);
      }
      for (const c of m.toolCalls || []) log.append(drawToolCall(c));
    }
  });
  drawNotices(chat.messages.length);
  if (stick) log.scrollTop = log.scrollHeight;
}

function notice(text, error = false) {
  chat.notices.push({ at: chat.messages.length, text, error });
}

function status(text) {
  $("status").textContent = text;
}

function setRunning(running, text) {
  $("send").hidden = running;
  $("stop").hidden = !running;
  $("input").disabled = running;
  status(text);
  if (!running) $("input").focus();
}

// ---- wiring -------------------------------------------------------------

const emptyState = $("empty");

function send(textValue) {
  const t = textValue.trim();
  if (!t || chat.controller) return;
  // A question left unanswered is declined by moving on.
  chat.pending.clear();
  chat.messages.push({ id: uuid(), role: "user", content: t });
  $("input").value = "";
  draw();
  run(cancelInterrupts());
}

$("composer").addEventListener("submit", (e) => { e.preventDefault(); send($("input").value); });
$("input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send($("input").value); }
});
$("input").addEventListener("input", (e) => {
  e.target.style.height = "auto";
  e.target.style.height = `${e.target.scrollHeight}px`;
});
$("stop").addEventListener("click", () => chat.controller && chat.controller.abort());
$("new").addEventListener("click", () => {
  if (chat.controller) chat.controller.abort();
  Object.assign(chat, { threadId: uuid(), messages: [], notices: [], pending: new Set(), expanded: new Set(), interrupts: [], decisions: {}, denied: new Set() });
  draw();
});
document.querySelectorAll(".chip").forEach((c) => c.addEventListener("click", () => send(c.dataset.prompt)));
fetch("config").then((r) => r.json()).then((c) => { $("model").textContent = `${c.provider} · ${c.model}`; }).catch(() => {});
draw();
$("input").focus();
