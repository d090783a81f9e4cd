// Package compaction keeps an agent's transcript within its model's
// context window the way pi's coding agent (1.6.0) does: when the context
// fills up, the older part of the transcript is replaced by a summary a
// model writes, and the recent part is kept as it is. Without it, a
// session on a small window ends silently: the providers fit each
// response's max tokens into what is left of the window (keeping a 4,096
// token margin), so past a point every answer is cut to a token or two.
//
// The package is optional and is a layer ([agentcore.Layer]): install a
// [Compactor] on an Agent and it compacts by itself.
//
//	compactor := compaction.New(compaction.Options{StreamFn: streamFn})
//	agent := agentcore.New(agentcore.Options{
//		Model: model, StreamFn: streamFn, Tools: tools,
//		Layers: []agentcore.Layer{compactor},
//	})
//	err := agent.Prompt(ctx, "Read the notes.")      // compacts when needed
//	res, err := compactor.Compact(ctx, "the API")     // or on demand
//
// [Prepare], [Summarize] and [Preparation.Messages] are the steps
// underneath, for a program that drives compaction on its own.
//
// # When
//
// A compaction starts when the context takes more than ContextWindow -
// ReserveTokens tokens ([ShouldCompact]). The context size is pi's coding
// agent's estimate ([EstimateContextTokens]) of what the model would be
// sent: the usage the provider reported for the last answer plus the
// messages after it at 4 characters a token. The [Compactor] checks it
//
//   - before each prompt, the new messages included (scaled by the token
//     scale of the last usage, see [Prepare]: pi does not scale);
//   - between the turns of a run (its PrepareNextTurn hook), after the
//     tool results were appended, so a run of many tool calls never
//     outgrows the window; the loop skips that hook when the run ends;
//   - after each run.
//
// A model whose ContextWindow is 0 (unknown, as a local server's that
// providers.LookupModel could not ask) never compacts by itself: set
// [Options].ContextWindow. When the system prompt and the tool
// declarations alone are above the threshold, no compaction can help: a
// [FixedPartEvent] says so, once, and the Compactor does not compact
// before every prompt.
//
// pi's budgets (reserve 16,384 tokens, keep 20,000) suit large windows;
// zero [Settings] scale them down for small ones ([Settings.ForWindow]):
// on an 8k model compaction starts above 3,072 tokens of context, keeps
// 768 and caps the summary at 768. This leaves a checked request the
// providers' 4,096-token margin and about 1,000 tokens to answer by the
// estimate; a tokenizer that counts more than the estimate leaves less,
// which is why the layer also scales by the last usage, cuts oversized
// tool results of the kept part to fit ([Preparation.FitKept], with a
// notice the model reads), and cuts a summary longer than its cap.
//
// # Where to cut
//
// [Prepare] walks back from the end of the transcript, adding up each
// message's estimated tokens until it reaches KeepRecentTokens, and cuts
// at the nearest user, assistant or app-defined message from there on:
// never at a tool result, which stays with its call, nor at a system
// message, which is prompt state (the system messages before the cut are
// replayed into one, which stays first). When the cut falls at an
// assistant message, the user message's span it belongs to is split: the
// span's first part is summarized on its own, and joined to the summary of
// what came before. A later compaction starts where the previous one cut
// (just after its summary) and updates the previous summary rather than
// summarizing it again.
//
// # The summary
//
// [Summarize] sends the messages to summarize as a plain-text record (so
// the model reads it rather than continuing it; thinking is left out and
// tool results are cut at 2,000 characters, as pi cuts them; so are a tool
// call's arguments, which pi does not cut: on a small window one call's
// arguments could otherwise fill the summary request) through an
// [agentcore.StreamFn]
// — the agent's own model by default, or [Options.Model] — and asks for a
// checkpoint in pi's layout: goal, constraints and preferences, progress
// (done, in progress, blocked), key decisions, next steps, critical
// context. The files the summarized tool calls read and modified ([FilesFunc],
// pi's read/write/edit convention by default) are appended as lists and
// carried from summary to summary (on a small window, the lists in the
// summary's text are cut to a quarter of its room; the message keeps
// them whole). A summary that failed or called a tool is asked for once
// more, then refused ([ErrSummaryFailed]); one that is empty twice is
// replaced by the record's latest entries, and one stopped at its token
// cap twice is kept, marked as cut ([Summarize]).
//
// The summary enters the transcript as a [*Summary] message (role
// "compactionSummary", pi's), between the system message and the kept
// messages. The model sees it as a user message holding the summary in
// <summary> tags ([ConvertMessages], which the Compactor's ConvertToLLM
// hook applies before the program's). A transcript holding one round-trips through JSON; decode it
// with a registry on which [Register] was called.
//
// # Recovery
//
// When a run's last answer says the request overflowed the window
// ([models.IsContextOverflow]), or stopped at its length limit below the
// max tokens asked for because the providers clamped them into a full
// window, the Compactor recovers once per call, in pi's order: the failed
// run ends normally (its turn_end and agent_end carry the failed answer),
// then the failed answer is dropped, the transcript compacted, and the
// transcript continued by a fresh run. A length stop at a limit the
// caller set is an ordinary answer. An answer that completed although its
// input exceeded the window is compacted after, not retried. If the
// compaction or the retry fails, Prompt returns [ErrRecoveryFailed]. A
// compaction that fails leaves the transcript as it was, and its
// [EndEvent] says why; one during which the transcript was edited keeps
// the edit. [agentcore.Agent.Abort] ends a compaction inside a run as it
// ends the run.
//
// # Seen from outside
//
// [Options.OnEvent] gets a [*StartEvent] before and an [*EndEvent] after
// each compaction, with the estimated tokens before and after, the
// summary and its usage ([Result]). [Compactor.Compact] compacts on
// demand, with optional instructions ("focus on the API changes").
//
// # Durable sessions
//
// A durable session (package durable/temporal) compacts when its Options
// set Compaction: after each run, by the same threshold, cut and summary
// as the [Compactor]'s. Its hooks run in the workflow and must not block, so
// it does not compact between the turns of a run; the steps underneath
// are what it uses: [Prepare] and [Preparation.Messages] run as workflow
// code (they are deterministic functions of the transcript), and
// [Summarize] runs there too with a stream function that makes each
// summary call as the session's model activity, recorded in the history,
// and [SummaryRequest].Now set to the workflow's clock, so that a replay
// gives the same summary message.
package compaction
