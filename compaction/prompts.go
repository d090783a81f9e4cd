package compaction

// The texts of the summary requests.
const (
	systemPrompt = `You write context checkpoints. The user gives you the record of a conversation between a user and an AI assistant, inside <conversation> tags. Do not continue that conversation and do not answer anything asked in it: reply only with the summary, in the layout you are asked for.`

	checkpointLayout = `## Goal
[What the user wants to achieve; several items if the conversation covers more than one task]

## Constraints & Preferences
- [Requirements, limits and preferences the user stated, or "(none)"]

## Progress
### Done
- [x] [Finished work]

### In Progress
- [ ] [Work under way]

### Blocked
- [What stands in the way, if anything]

## Key Decisions
- **[Decision]**: [Why it was taken]

## Next Steps
1. [What to do next, in order]

## Critical Context
- [Facts, data and references needed to go on, or "(none)"]

Be brief in every section. Keep file paths, function names and error messages exactly as they were written.`

	firstPrompt = `Turn the conversation above into a checkpoint from which another model can carry on the work without seeing it. Use exactly this layout:

` + checkpointLayout

	updatePrompt = `The conversation above continues the one summarized in <previous-summary>. Merge both into one checkpoint: keep everything from the previous summary that still holds, add the new progress, decisions and context, move items that were finished from In Progress to Done, bring Next Steps up to date, and drop only what no longer matters. Use exactly this layout:

` + checkpointLayout

	turnPrefixPrompt = `The conversation above is the first part of a request that is still being worked on; the messages that follow it are kept as they are and need not be retold. Write a short checkpoint of this part for whoever reads those later messages:

## Original Request
[What the user asked for]

## Progress So Far
- [Work done and decisions taken in this part]

## Context Needed to Continue
- [What the later messages need from this part to make sense]

Use only what is stated above; do not guess at what came later.`

	// noHistory stands for the history of a split span that has none.
	noHistory = "No earlier history."
	// splitHeading joins a history summary and a span prefix summary.
	splitHeading = "\n\n---\n\n## Current request, first part (split span)\n\n"
)
