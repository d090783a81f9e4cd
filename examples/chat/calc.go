package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// evaluate computes an arithmetic expression of numbers, + - * /, unary
// minus and parentheses, with the usual precedence.
func evaluate(expr string) (float64, error) {
	p := &parser{src: expr}
	v, err := p.sum()
	if err != nil {
		return 0, err
	}
	if p.skipSpace(); p.pos < len(p.src) {
		return 0, fmt.Errorf("unexpected %q at position %d", p.src[p.pos:], p.pos)
	}
	return v, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (p *parser) peek() byte {
	if p.skipSpace(); p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) sum() (float64, error) {
	return p.chain("+-", p.product, func(op byte, a, b float64) (float64, error) {
		if op == '+' {
			return a + b, nil
		}
		return a - b, nil
	})
}

func (p *parser) product() (float64, error) {
	return p.chain("*/", p.unary, func(op byte, a, b float64) (float64, error) {
		switch {
		case op == '*':
			return a * b, nil
		case b == 0:
			return 0, fmt.Errorf("division by zero")
		}
		return a / b, nil
	})
}

// chain parses operands joined by the operators in ops, which bind equally,
// and combines them left to right with apply.
func (p *parser) chain(ops string, operand func() (float64, error), apply func(op byte, a, b float64) (float64, error)) (float64, error) {
	v, err := operand()
	for err == nil {
		op := p.peek()
		if op == 0 || strings.IndexByte(ops, op) < 0 {
			return v, nil
		}
		p.pos++
		var r float64
		if r, err = operand(); err == nil {
			v, err = apply(op, v, r)
		}
	}
	return 0, err
}

func (p *parser) unary() (float64, error) {
	switch p.peek() {
	case '-':
		p.pos++
		v, err := p.unary()
		return -v, err
	case '(':
		p.pos++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, fmt.Errorf("missing ) at position %d", p.pos)
		}
		p.pos++
		return v, nil
	}
	start := p.pos
	for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.') {
		p.pos++
	}
	if start == p.pos {
		if p.pos == len(p.src) {
			return 0, fmt.Errorf("unexpected end of expression")
		}
		return 0, fmt.Errorf("unexpected %q at position %d", p.src[p.pos], p.pos)
	}
	return strconv.ParseFloat(strings.TrimSpace(p.src[start:p.pos]), 64)
}
