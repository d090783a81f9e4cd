package agentcore

// statedZeros is the set of optional fields a decoded value carried with
// their zero value ("" or false). On pi's wire an optional field stated
// as empty differs from one left out, and TypeScript pi writes some of them
// (an empty thinking signature), so a decoded value remembers them and
// writes them back. Each
// type numbers its own fields; a value built in Go states none, and its
// zero-valued optional fields are left out.
type statedZeros uint8

// orStated returns &v when v is not the zero value or was stated, and nil
// (leave the field out) otherwise.
func orStated[T comparable](v T, stated statedZeros, field statedZeros) *T {
	var zero T
	if v == zero && stated&field == 0 {
		return nil
	}
	return &v
}

// fromStated returns *p, or the zero value when p is nil, and adds field to
// stated when p holds the zero value.
func fromStated[T comparable](p *T, stated *statedZeros, field statedZeros) T {
	var zero T
	if p == nil {
		return zero
	}
	if *p == zero {
		*stated |= field
	}
	return *p
}
