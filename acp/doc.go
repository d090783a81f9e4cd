// Package acp serves an agentcore Agent to editors over the Agent Client
// Protocol (ACP), version 1.
package acp
