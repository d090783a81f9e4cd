module github.com/pi-go/agentcore/mcp

go 1.26.0

require (
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/pi-go/agentcore v0.1.0
)
