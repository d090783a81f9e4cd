package jsondec

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Decoder decodes one document per call. The zero value is ready to use; a
// Decoder is not safe for concurrent use.
type Decoder struct {
	src bytes.Reader
	dec *json.Decoder
	fed int64 // bytes given to dec
}

// Decode decodes data into v as json.Unmarshal(data, v) does, with the
// same result and error. After a syntax error v may have been changed (a
// document followed by other text is decoded before the text is seen).
func (d *Decoder) Decode(data []byte, v any) error {
	if d.dec == nil {
		d.dec, d.fed = json.NewDecoder(&d.src), 0
	}
	d.src.Reset(data)
	d.fed += int64(len(data))
	err := d.dec.Decode(v)
	if _, typeErr := errors.AsType[*json.UnmarshalTypeError](err); (err == nil || typeErr) && d.dec.InputOffset() == d.fed {
		return err
	}
	// Not one whole document, or not JSON: json.Unmarshal says what it is,
	// and the next document starts on a new decoder.
	d.dec = nil
	return json.Unmarshal(data, v)
}
