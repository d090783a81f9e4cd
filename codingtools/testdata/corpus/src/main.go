package main

import "fmt"

// TODO: flags
func main() {
	fmt.Println("hello")
	fmt.Println("hello")
}
