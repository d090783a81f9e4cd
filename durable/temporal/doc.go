// Package temporal runs agentcore sessions as Temporal workflows: a run
// survives the loss of the worker executing it, and a session is steered,
// aborted and read from any process.
//
// # Sessions
//
// A session is one workflow execution (its workflow ID is the session's
// ID). Its transcript, its steering and follow-up queues, its settings
// (below) and the record of its active run are workflow state. It is
// driven by requests, which the client's calls return from once the
// workflow has applied them:
//
//   - prompt starts a run, refused with [agentcore.ErrBusy]'s meaning while
//     one is active ([Session.Start], [Session.Prompt]);
//   - continue starts a run from the transcript without a new message, by
//     [agentcore.Agent.Continue]'s rules and refusals
//     ([Session.StartContinue], [Session.Continue]);
//   - steer and followUp queue messages ([Session.Steer], [Session.FollowUp]);
//     a run that fails after taking them and before delivering them (a
//     PrepareNextTurn that fails, say) puts them back at the front of
//     their queue, as the Agent's does;
//   - abort cancels the active run's model request and tool calls
//     ([Session.Abort]) and the run ends once they have returned; the
//     queues are kept (see Aborts);
//
// (prompt, continue, steer, followUp and abort are [Control] requests
// sent on the control signal rather than updates: see Control without a
// worker; the updates of those names are still served for earlier
// clients);
//   - reset clears the transcript to its system message and empties the
//     queues, refused while a run is active ([Session.Reset]);
//   - the setters change what a user may change of an
//     [agentcore.Agent] (see Settings below);
//
// and queries answer without changing anything: state a snapshot,
// settings included ([Session.State]), run how a run ended
// ([Session.Wait]) and messagesFrom the messages past a cursor
// ([Session.Messages]). One run is active at a time, by the
// [agentcore.Agent]'s rules.
//
// Workers register a [Sessions] made by [New] with the code of a session
// type — its tools, hooks and stream function — and the settings new
// sessions start with ([Options]); clients use a [Client].
//
// # Settings
//
// A client changes a session as a user changes an [agentcore.Agent], by
// updates of the same names and the same timing of effect, idle or during
// a run:
//
//   - [Session.SetModel], [Session.SetThinkingLevel],
//     [Session.SetToolExecution] and [Session.SetTools] apply from the
//     next run: a run keeps those it started with (they are in its
//     record), as the Agent's does, and a tool change is declared to the
//     model before the next run's first request. Tools are code, so a
//     session selects by name among the workers' [Options.Tools]
//     ([Options.ActiveTools] are a new session's); a name the workers
//     lack is refused with [ErrUnknownTool];
//   - [Session.SetSteeringMode], [Session.SetFollowUpMode] and
//     [Session.ClearQueue] apply from the next poll of the queue, during
//     a run too;
//   - [Session.SetMessages] replaces the transcript and
//     [Session.AppendMessage] appends to it; a run in progress goes on
//     from the context it started with and appends its messages to the
//     new transcript, as the Agent's does (subscribers of
//     [Session.Messages] are told of a replacement as of a reset);
//   - [Session.Abort] of an idle session does nothing.
//
// A value the Agent would take but a session cannot (an unknown thinking
// level or mode, a tool selected twice) is refused with
// [ErrInvalidSetting], changing nothing. The settings are workflow state,
// carried over by continue-as-new; a session whose settings were never
// changed stores none and uses its Options, so histories recorded before
// settings existed replay unchanged. [Options.StreamOptions] stay the
// workers' (they hold keys and request hooks, which must not enter the
// history), as does the system prompt a new session is seeded with.
//
// # How a run is executed
//
// Model requests and tool executions run in activities: the model activity
// calls [Options.StreamFn] and returns the final assistant message; the tool
// activity runs one validated call's Execute. Everything else — what comes
// next, steering after a batch, follow-ups when the run would stop,
// BeforeToolCall and AfterToolCall, FinishTurn, PrepareNextTurn,
// terminate — is decided by agentcore's own loop ([agentcore.RunLoop]),
// the engine the Agent drives, not by a second copy of its schedule.
//
// The loop cannot simply run inside the workflow: it starts goroutines
// (tool batches run on goroutines of their own and post events through
// channels), reads the clock, and its stream function and tools would have
// to block on workflow futures from those goroutines, which Temporal
// forbids. Its decisions, however, are a deterministic function of its
// inputs: the transcript at the run's start, the prompts, the model's
// answers, the tools' results, what each poll of the queues returned, and
// the hooks. So the workflow keeps the run's record — those inputs — and
// replays the loop from the run's start with the record standing in for
// the model, the tools and the queues:
//
//  1. the loop runs, answered from the record, until it asks for an
//     outcome the record lacks: the next model request, or the calls of a
//     tool batch that passed BeforeToolCall (all of a parallel batch, one
//     call of a sequential one);
//  2. from then on the replay is discarded: hooks are skipped and answers
//     are placeholders, so the loop winds down at once;
//  3. the messages before that point are final and are appended to the
//     durable transcript (once each);
//  4. the workflow runs the missing outcomes as activities (a batch's calls
//     concurrently), records them, and replays again.
//
// A queue poll the loop makes for the first time takes from the queue at
// that moment and is recorded; later replays get the same answer. The
// replay itself waits for nothing but the loop: it runs between two
// workflow yields, so its goroutines are started and joined within one
// step of the workflow, never across one.
//
// The cost is that a run with n model requests replays the loop about 2n
// times, each from the run's start: O(n²) loop steps, in exchange for one
// schedule instead of two. BenchmarkReplay measures one replay: even a
// long run's stays far inside the one second Temporal allows a workflow
// task between yields. Hooks consequently run
// more than once per turn and must be deterministic, non-blocking functions
// of their arguments, as Temporal requires of workflow code; GetAPIKey is
// called in the model activity instead, so keys never enter the history.
// Timestamps and durations that the loop takes from the clock are replaced,
// when messages are committed, by the workflow's time and the activities'
// measured durations, so a replay on another worker gives the same
// transcript byte for byte.
//
// # Workflow code and workflowcheck
//
// Temporal's workflowcheck flags, in this package's workflow code, only
// what the replay of the loop does by design, each confined to one
// workflow step:
//
//   - the loop's goroutines and channels (replay.run, through
//     [agentcore.RunLoop]): they are started and joined between two
//     yields of the workflow, wait for nothing but each other, and give
//     the same decisions in any interleaving, since every outcome they
//     read is recorded and the calls' order is fixed by their preflight
//     order;
//   - the loop's clock: a tool result's timestamp and duration, and the
//     timestamp of a tool-change declaration the loop inserts. Both are
//     overwritten before any hook or request sees them: a tool result
//     gets the time its outcome was recorded and the duration the tool
//     measured (TestHooksSeeRecordedTimes), a declaration the run's
//     recorded start (TestHooksSeeRecordedDeclarationTime), the values
//     the committed transcript holds. (Runs recorded before the
//     pin-run-settings version have no recorded start: their
//     declarations keep the worker's clock until committed.)
//   - sorted iteration over the keys of a run's outcomes (maps.Keys under
//     slices.Sorted) when sizing the state ([Options.PayloadLimit]).
//
// Everything else the workflow reads comes from the history: workflow.Now
// for the transcript's timestamps, activity results for the model's and
// tools' outcomes.
//
// # Same transcript as the Agent
//
// A run through a session gives the transcript a plain [agentcore.Agent]
// gives with the same model, tools and hooks. The tests check it on this
// package's own scripts and on the Agent's conformance scenarios
// (testdata/conformance at the repository's root): each scenario that
// does not depend on timing is played through both, every step by its
// session update, comparing every request the model received, each
// prompt's error, what each peek saw queued, and the transcript, model
// and thinking level at each state step. 27 of the 45 run. The
// scenarios' hooks that pick a rule by call number pick it instead by a
// number derived from their arguments (a replayed loop calls them more
// than once), after checking on the Agent that it equals the count.
// Skipped, with the reason in TestConformanceScenarios: 11 scenarios run
// a prompt in the background (their steps land by timing), 1 aborts from
// a tool, and 6 steer or abort from a hook (hooks run in the workflow,
// which cannot call the client).
//
// # Errors
//
// A failed request's typed error crosses the activity boundary: the
// model activity's result carries the final message's Err, which pi's
// JSON leaves out, so the committed message's Err is the
// [*agentcore.ProviderError] the provider reported (its cause a plain
// error of the same text; any other error becomes a plain error of the
// same text). Hooks see it, [Session.Prompt]'s [*agentcore.RunError]
// unwraps to it, and transcripts read from a session ([Messages]) keep it,
// as with the plain Agent. The error travels in an optional member of the
// message's JSON object, which decoders of pi's format ignore: histories
// recorded without it replay unchanged, their messages without an Err.
//
// # Crash safety
//
// A worker lost while the model streams: the model activity times out
// (its heartbeat stops) and is retried on another worker — a request has no
// effect to repeat. A worker lost while a tool runs: the tool activity is
// retried, and the retry runs the call again only when the tool's Replay is
// [agentcore.ReplaySafe]; otherwise it answers an error result,
// [UnknownOutcomeText], saying the outcome is unknown. A worker lost between
// turns or inside a hook lost only an unfinished workflow task: the next
// worker replays the history and redoes it. Every call in the transcript
// has exactly one result, and no message is lost or duplicated: messages
// are committed by the workflow, whose state only the history determines.
//
// A call's activity fails only when its worker is lost or it is cancelled
// (a tool's error is an error result, not an activity failure), so an
// attempt number above one means the earlier attempt's outcome is unknown.
//
// A long tool that is safe to replay can resume rather than start over:
// it records its progress with [ToolProgress], which the activity's
// heartbeats carry to the server, and the attempt that runs it again after
// its worker was lost reads the latest with [LastToolProgress]
// (TestToolResumesFromProgress).
//
// # Recovery time
//
// How soon a run goes on after its worker is lost is set by timeouts:
//
//   - an activity (a request or a tool call) is retried once its
//     heartbeat timeout passes without a heartbeat (HeartbeatTimeout of
//     [Options.ModelActivity] and [Options.ToolActivity], 30 s by default),
//     after the retry policy's first interval (1 s): about 31 s by
//     default. A shorter heartbeat timeout recovers sooner and risks
//     timing out a live worker whose heartbeats are late (the crash tests
//     use 2 s);
//   - an activity whose worker stopped without losing its connection is
//     retried at once (the SDK fails it as the worker stops);
//   - a workflow task (a replay between two activities, a hook) is
//     retried after the workflow task timeout, 10 s by default (the
//     server's; [StartOptions].WorkflowTaskTimeout sets it);
//   - StartToCloseTimeout (10 min by default) bounds one attempt of an
//     activity whatever its heartbeats.
//
// The multi-process test measured 37 s from a SIGKILL to the
// run's end with the 30 s heartbeat timeout, 16 s with 5 s.
//
// # Events
//
// Message-level events come from the durable transcript: [Session.Messages]
// returns the messages past a cursor and the next cursor, so a subscriber
// sees each message exactly once, whichever worker produced it.
//
// Streaming deltas are live and best-effort: the model activity hands
// every event of the stream function to [Options.OnStream] on the worker,
// as a [StreamEvent] naming the session, the run, the request and the
// attempt. [Live] is an in-memory hub for it, which clients in the
// workers' process subscribe to ([Live.Subscribe]); clients elsewhere need
// a hub of their own behind OnStream. Live events are not in the history:
// they are lost with their worker, a retried attempt streams its request
// again from the start, and an attempt cut short by an abort or a lost
// worker may have streamed a message that is never committed. The
// committed transcript stays the source of truth. Tool progress (a tool's
// onUpdate) is not delivered: the tool activity heartbeats it away.
//
// # Waiting
//
// [Session.Wait] and [Session.Messages] poll the run and messagesFrom
// queries, 20 ms after the first answer and then at doubling intervals up
// to 500 ms, rather than holding an update open: a server admits only 10
// updates in flight per workflow, and waiters holding them would starve
// Abort, Steer and every other update. Any number of clients may wait;
// each costs a query per interval. A query that fails for a reason that
// may pass (no worker serves the session, a workflow task being retried)
// is asked again until ctx ends.
//
// The wait and messages updates of earlier clients are still served, so
// that histories recording them replay; new clients do not use them.
//
// A session remembers how its last 16 runs ended: waiting for an older
// one fails with [ErrForgotten] (it may have failed), for a number no run
// has with [ErrUnknownRun] (after 2 s: a query may be answered from the
// state before the workflow task that started the run, when that task is
// retried).
//
// # Control without a worker
//
// Prompts, continues, steering, follow-ups and aborts are [Control]
// requests, each with a key, sent as a signal ([Session.Send]): the server records a signal whether
// or not a worker runs the session, and the session applies each key
// once (it remembers the last 512); requests received as the session
// continues as new are applied before its state is carried over. Send
// then polls the control query
// until the session reports the request applied, so that a [Session.State]
// after it sees the message queued. Its error says what happened: one
// wrapping [ErrRecorded] means the request is recorded and will be
// applied when a worker runs (sending it again with the same key is
// harmless, and tells how it was applied); any other, that it was not
// recorded (send it again). A prompt or continue answers its run's number
// or its refusal ([agentcore.ErrBusy] and the others of [Session.Start]
// and [Session.StartContinue]); one recorded while no worker ran is
// applied, or refused, when one does. A message the session cannot keep
// is refused with [ErrTooLarge]. Resets and the setters stay updates,
// which wait for a worker. Measured (TestControlWithoutWorker): with no
// worker, Send returns [ErrRecorded] after its ctx's second; a worker
// started later applies the recorded steer, follow-up and prompt once
// each, sent again with their keys included.
//
// # Aborts
//
// [Session.Abort] cancels the active run's activities, and the run ends
// once they have ended (their WaitForCancellation is set): a tool call is
// recorded with what the tool returned, as by the Agent — the error of a
// tool that returns its ctx's error ("context canceled"), the result of
// one that finished its work anyway — so the transcript says what the
// call did (TestAbortRecordsAsTheAgent runs both); a call not yet started
// gets "Operation aborted", as the Agent's does. A cancellation reaches
// an activity only in the server's answer to one of its heartbeats, which
// the activities send through the worker's client every
// [HeartbeatThrottle] (300 ms), not through the SDK, whose throttle
// (80% of the heartbeat timeout unless the worker's
// MaxHeartbeatThrottleInterval is smaller) would delay it by up to 24 s:
// a worker built with the SDK's default options aborts as soon as one
// built with [WorkerOptions]. Measured under -race on a loaded 2-core
// machine (TestAbortReachesRunningTool): 320 ms from Abort to the
// tool's ctx, with either options, against 10.6 s with the SDK's
// throttle and a 3 s heartbeat timeout before. With 12 clients waiting
// (TestControlWithManyWaiters), Steer answered in 290 ms and Abort in
// 160 ms, against 19 s for Steer when waiters held updates.
//
// # Limits
//
// Temporal refuses a payload over 2 MiB, a workflow task's commands over
// 4 MiB, and ends a workflow whose history passes 50 MiB or 51,200
// events; a workflow task that fails on one of these is retried for ever
// and the session no longer answers. A session never asks for that:
//
//   - without a claim check (the default), [Options.PayloadLimit]
//     (1.5 MiB by default) bounds the session's state, which
//     continue-as-new carries, every model request's input and every
//     activity's result. A tool result that would take the state past it
//     is replaced by an error result saying so (the tool ran; the model
//     reads that its result was too large); a model request whose context
//     is past it is not made and the run fails with [ErrTooLarge]; an
//     update whose messages would take the state past it is refused with
//     [ErrTooLarge], changing nothing. A tool result counts twice while
//     its run lasts (in the run's record and in the transcript), so at the
//     default limit a run keeps about two results of 256 KB. The session
//     keeps working: compact its transcript with [Session.SetMessages] or
//     [Session.Reset].
//   - with a [ClaimCheck] in the data converter of every worker and
//     client, every payload past its threshold (64 KiB) lives in a
//     [BlobStore] ([DirStore] is a directory) and the history holds its
//     key; set [Options.PayloadLimit] to [NoPayloadLimit]. Measured
//     (TestLargeResultsWithClaimCheck): a run of twelve 256 KB tool
//     results, a 3 MB transcript, leaves a history of 160 events and
//     26 KB; without a claim check (TestLargeResultsWithoutClaimCheck)
//     the same run keeps two results, answers the ten others with the
//     error result, and ends; the session then takes new prompts.
//
// [Session.Messages] answers at most about 512 KB at a time (a longer tail
// takes several calls), so no answer grows with the transcript.
//
// A payload codec is also where transcripts are encrypted: chain an
// encrypting [converter.PayloadCodec] after the claim check in
// [converter.NewCodecDataConverter], in every worker and client (and in
// the codec server of the Web UI, if any); the workflow sees plain
// values either way.
//
// # Long sessions
//
// A session whose history is past [Options.MaxHistoryLength] events, or
// whose server suggests it (by default at 4 Ki events or 4 MiB), continues
// as new with its transcript, queues, settings, counters and the active
// run's record:
// when idle, or between two steps of a run, which the new execution then
// replays and goes on with. Waiting clients go on polling the new
// execution transparently.
//
// Measured (TestHistoryCost): a run of two turns — a request answered with
// one tool call, then a text answer — adds 28 history events, about 14 a
// turn: the prompt and wait updates, one workflow task per outcome, and the
// scheduled, started and completed events of each activity. Its bytes grow
// with the context, since each request's activity input carries the whole
// converted transcript: on a transcript growing by 1 KB a run, each run
// added 4.4 KB more history than the one before. History bytes therefore
// grow with the square of the transcript's length until the session
// continues as new, which resets them to the size of the state.
//
// # Upgrading workers
//
// Hooks, the loop and the workflow are workflow code: a worker replaying a
// history must decide as the worker that recorded it. A run records the
// settings it started with (model, thinking level, tools by name, tool
// execution mode) and a session records its initial transcript, so that
// a worker with other [Options] goes on with a run as it started, across
// a continue-as-new too. What changes of a worker's code and Options may
// be deployed while sessions run:
//
//   - safe: adding tools (a session whose settings were never changed
//     takes them from its next run, and declares them to the model then);
//     setting [Options].Compaction (a session compacts from the end of its
//     next run, behind a version); StreamFn, StreamOptions, GetAPIKey, OnStream; a tool's Execute and
//     Replay; the activity options; PayloadLimit and MaxHistoryLength
//     upwards; the SystemPrompt, Model, ThinkingLevel and modes of new
//     sessions;
//   - unsafe without versioning: what a hook decides or the messages it
//     makes; removing or renaming a tool a session selects, or changing
//     its declaration (its schema validates calls in the workflow);
//     lowering MaxHistoryLength or PayloadLimit; unsetting Compaction or
//     changing its budgets; a new version of
//     agentcore whose loop decides differently. Deploy such a change
//     behind [workflow.GetVersion] in the hook (the version is recorded in
//     the history the first time the hook runs, and replays read it back),
//     or register it under a new [Options.Name] and let old sessions end
//     on old workers.
//
// The package follows the same rule for its own changes: each behaviour
// that changed is behind a GetVersion change ID (requeue-undelivered,
// pin-run-settings, wait-for-cancellation, compact-between-runs,
// hold-calls, decide-during-run), and the histories recorded
// in testdata by earlier versions must replay (TestReplayRecordedHistories).
//
// # Compaction
//
// A session whose [Options].Compaction is set, or whose [Options].Layers
// hold a [compaction.Compactor] (its Settings are used; its ContextWindow
// option is not: the session's model's window decides), compacts its
// transcript as the Compactor does after an Agent's run: when the context the model
// would be sent (estimated after ConvertToLLM) is past the threshold of
// the session's model ([compaction.ShouldCompact]; a model without a
// known ContextWindow never compacts), the workflow cuts the transcript
// ([compaction.Prepare]), has the older part summarized
// ([compaction.Summarize]) and replaces the transcript with the system
// message, the summary and the kept messages, which [Session.Messages]
// reports as a replacement. The cut and the replacement are workflow
// code; each summary call (one, or two for a split turn) is a request
// of the session's model activity, with the summary's max tokens, so it
// is in the history, retried as any request and streamed to
// [Options.OnStream] (with Run 0). The summary is stamped with the
// workflow's clock: a replay gives the same transcript
// (TestCompactionBetweenRuns, testdata/history-compaction.json).
//
// The session waits for no compaction: a prompt, an edit or a reset that
// arrives while the summary is written is applied, and the summary is
// then dropped (the transcript it summarized is gone); a summary that
// fails leaves the transcript as it was. Both are retried after the next
// run. Not done, since hooks must not block in the workflow: compacting
// between the turns of a run and before a prompt, and the Agent's
// recovery from an overflowing answer. A session shows summaries to the
// model as user messages ([compaction.ConvertMessages], applied before
// [Options].ConvertToLLM). The transcript read from a session holds a
// summary as an [*agentcore.CustomMessage] of role "compactionSummary"
// ([compaction.AsSummary] reads it).
//
// # Held calls
//
// A session type with [Options].Hold (or a [hold.Gate] among its
// [Options].Layers, which is then not installed but gives its options)
// holds tool calls for a person's decision as a Gate does on an Agent
// (package hold): the policy runs in BeforeToolCall, a held call's
// result is the placeholder, and the run ends after that turn. The Gate
// cannot run as it does on an Agent (its state is per Agent and its run
// wrapper does not apply in a workflow), so the session keeps what is
// held itself, as workflow state:
//
//   - each replay of the loop gets a Gate of its own, on the workflow's
//     clock, whose hooks compose before the other hooks; the Policy and
//     OnDeadline run in the workflow and must be deterministic, and
//     OnEvent does not apply;
//   - a run that held calls ends with its placeholders committed and
//     [Session.Prompt], [Session.Continue] and [Session.Wait] return a
//     [*hold.HeldError] (not a failure: no error message); a prompt or
//     continue is refused with an error wrapping [hold.ErrHeld] while a
//     call waits; steering and follow-ups sent meanwhile are queued;
//   - [Session.Held] lists the held calls and their decisions from any
//     process; [Session.Decide] is a [Control] request (a signal, keyed,
//     applied once, recorded with no worker running), taken all or none
//     as [hold.Gate.Decide] takes it, with its refusals ([hold.ErrNotHeld],
//     [hold.ErrDecided], [hold.ErrInvalidDecision]);
//   - a run records what it held only as it ends, so a decide request
//     received while a run is active (a client that saw the call in
//     [Session.Messages] while another call of its batch ran, say) waits
//     for that run's end and is applied then, in the order received: when
//     the run held calls and they are then all decided, the run goes on at
//     once under the same number, as an Agent's run goes on when its held
//     calls were decided from the Gate's [hold.HeldEvent], and
//     [Session.Prompt], [Session.Continue] and [Session.Wait] return its
//     real end; otherwise (some call still waits, or the run failed or was
//     aborted) the run ends as it would have, with the decisions taken,
//     and a request naming a call it did not hold is refused then with
//     [hold.ErrNotHeld]. Meanwhile [Session.Decide] has not returned (with
//     a ctx that ends first, it returns an error wrapping [ErrRecorded]:
//     the request is kept). This is more than the Agent takes: its Gate
//     refuses a decision on a call its run has not held yet;
//   - a deadline ([hold.Request].Deadline, [hold.Options].Timeout) is a
//     workflow timer: at it the OnDeadline decision (a denial by default)
//     applies, with no client or activity around;
//   - the next run, once every held call is decided, first applies the
//     decisions ([hold.Gate.Resolve]): an approved call runs in the tool
//     activity, as any call (crash safety included), its BeforeToolCall
//     and AfterToolCall hooks applied in the workflow; denied and answered
//     calls get their results, and the transcript with the placeholders
//     replaced is a replacement for [Session.Messages]; then the loop goes
//     on and the model sees the results. A reset discards what is held.
//
// Waiting costs nothing: no activity runs and no worker is held, the
// history grows only by the decide signals, and continue-as-new carries
// what is held. Measured (TestHeldCallWaitingCost): a run that held ten
// calls with a day's deadline leaves a history of 15 events and 3.6 KB,
// which waiting and queries leave as it is; each decide signal adds 5
// events and about 640 bytes (the signal, its workflow task, and the
// deadline's timer started again). Its first use in a history is behind
// the hold-calls change ID, and a decision kept for a run's end behind
// decide-during-run; testdata/history-hold.json and
// history-hold-during-run.json replay. TestHeldCallAcrossWorkerRestart
// holds a call, loses the worker, decides from another client with no
// worker running and continues on a new worker;
// TestDecideDuringTheHoldingRun decides while the run goes on and gets
// the Agent's transcript; TestHeldCallDeadline, TestDecideHeldCalls and
// TestHeldCallsSurviveContinueAsNew check the rest.
//
// # Session files
//
// [ExportSession] writes a session's transcript, model and thinking level
// to a session file of the pi coding agent ([github.com/pi-go/agentcore/session.Session]), which
// pi opens and an [agentcore.Agent] resumes from; a compaction summary
// becomes pi's compaction entry (TestExportSession).
//
// # Layers
//
// [Options].Layers are the layers an [agentcore.Agent] of the session's
// type would have ([agentcore.Layer]), each part applied where it runs,
// as [agentcore.NewStack] composes them:
//
//   - hooks compose with [Options].Hooks and run in the workflow, under
//     the rules above for hooks: deterministic, no I/O, no blocking, run
//     again on replay (GetAPIKey in the model activity);
//   - stream function wrappers wrap [Options].StreamFn in the model
//     activity, on the worker: an agentotel.Instrumentation records a chat
//     span per request there, the child of the activity's span;
//   - tool wrappers wrap [Options].Tools in the tool activity: the
//     Instrumentation records an execute_tool span per executed call;
//   - a tool a hook adds to a run (PrepareRequest's context, as
//     structured's final-answer tool is added) is not among the workers'
//     tools: it executes in the workflow, in the replay of the loop, and
//     must be as deterministic as a hook (TestStructuredAnswerInASession);
//   - listeners and run wrappers do not apply (a workflow has no Agent and
//     sends no events): the Instrumentation records no invoke_agent span,
//     and a Compactor is not installed but configures the compaction
//     between runs (above), nor is a hold.Gate, which configures held
//     calls (above).
//
// TestLayersInASession checks each part on the in-process server.
//
// # Not here yet
//
//   - Live tool progress (a tool's onUpdate): only model requests stream
//     live events.
//   - Changing a session's stream options or adding tools a worker does
//     not register: both are worker code and configuration ([Options]).
//   - Resets and setters without a live worker: they are updates, which
//     the server holds until a worker validates them.
package temporal
