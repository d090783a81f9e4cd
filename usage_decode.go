package agentcore

import (
	"github.com/pi-go/agentcore/internal/jsonscan"
)

var usageKeys = []string{"input", "output", "cacheRead", "cacheWrite", "cacheWrite1h", "reasoning", "totalTokens", "cost"}

// scan reads a usage object into u, which is zero.
func (u *Usage) scan(s *jsonscan.Scanner) {
	if !s.Object() {
		return
	}
	var seen fields
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			return
		}
		switch string(key) {
		case "input":
			if once(s, &seen, 1<<0) {
				u.Input = s.Int()
			}
		case "output":
			if once(s, &seen, 1<<1) {
				u.Output = s.Int()
			}
		case "cacheRead":
			if once(s, &seen, 1<<2) {
				u.CacheRead = s.Int()
			}
		case "cacheWrite":
			if once(s, &seen, 1<<3) {
				u.CacheWrite = s.Int()
			}
		case "cacheWrite1h":
			if once(s, &seen, 1<<4) {
				u.CacheWrite1h = new(s.Int())
			}
		case "reasoning":
			if once(s, &seen, 1<<5) {
				u.Reasoning = new(s.Int())
			}
		case "totalTokens":
			if once(s, &seen, 1<<6) {
				u.TotalTokens = s.Int()
			}
		case "cost":
			if once(s, &seen, 1<<7) {
				u.Cost.scan(s)
			}
		default:
			unknown(s, key, usageKeys)
		}
		if s.Failed() {
			return
		}
	}
}

var costKeys = []string{"input", "output", "cacheRead", "cacheWrite", "total", "totalFromProvider"}

// scan reads a cost object into c, which is zero.
func (c *Cost) scan(s *jsonscan.Scanner) {
	if !s.Object() {
		return
	}
	var seen fields
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			return
		}
		switch string(key) {
		case "input":
			if once(s, &seen, 1<<0) {
				c.Input = s.Float()
			}
		case "output":
			if once(s, &seen, 1<<1) {
				c.Output = s.Float()
			}
		case "cacheRead":
			if once(s, &seen, 1<<2) {
				c.CacheRead = s.Float()
			}
		case "cacheWrite":
			if once(s, &seen, 1<<3) {
				c.CacheWrite = s.Float()
			}
		case "total":
			if once(s, &seen, 1<<4) {
				c.Total = s.Float()
			}
		case "totalFromProvider":
			if once(s, &seen, 1<<5) {
				c.TotalFromProvider = new(s.Bool())
			}
		default:
			unknown(s, key, costKeys)
		}
		if s.Failed() {
			return
		}
	}
}
