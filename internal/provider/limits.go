package provider

// LimitFailure is the failure of a response ended by one of its limits
// (see [limit.Is]): err's text, err its cause.
func LimitFailure(err error) *Failure {
	return &Failure{Text: err.Error(), Err: err}
}
