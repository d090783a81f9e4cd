package codingtools_test

import (
	"context"
	"fmt"
	"os"

	"github.com/pi-go/agentcore/codingtools"
)

func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	tools := codingtools.AllTools(dir, &codingtools.Options{Confine: true})
	run := func(name, args string) {
		for _, t := range tools {
			if t.Name == name {
				res, err := t.Execute(context.Background(), "id", []byte(args), nil)
				if err != nil {
					fmt.Println("error:", err)
					return
				}
				fmt.Println(res.Text())
			}
		}
	}
	run("write", `{"path":"src/hello.txt","content":"hello\nworld\n"}`)
	run("edit", `{"path":"src/hello.txt","edits":[{"oldText":"world","newText":"gopher"}]}`)
	run("read", `{"path":"src/hello.txt","offset":2}`)
	run("find", `{"pattern":"*.txt"}`)
	run("grep", `{"pattern":"goph"}`)
	// Output:
	// Successfully wrote to src/hello.txt
	// Successfully replaced 1 block(s) in src/hello.txt.
	// gopher
	//
	// src/hello.txt
	// src/hello.txt:2: gopher
}
