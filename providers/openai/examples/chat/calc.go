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
	v, err := p.product()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			return v, nil
		}
		p.pos++
		r, rerr := p.product()
		switch {
		case rerr != nil:
			err = rerr
		case op == '+':
			v += r
		default:
			v -= r
		}
	}
	return 0, err
}

func (p *parser) product() (float64, error) {
	v, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			return v, nil
		}
		p.pos++
		r, rerr := p.unary()
		switch {
		case rerr != nil:
			err = rerr
		case op == '*':
			v *= r
		case r == 0:
			err = fmt.Errorf("division by zero")
		default:
			v /= r
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
