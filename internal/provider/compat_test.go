package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

func TestCompat(t *testing.T) {
	type keys struct {
		On  *bool `json:"on"`
		Off *bool `json:"off"`
	}
	for _, tc := range []struct {
		name, compat string
		on, off      bool
		err          string
	}{
		{"absent", "", true, false, ""},
		{"null", "null", true, false, ""},
		{"set", `{"on":false,"off":true}`, false, true, ""},
		{"null keys take defaults", `{"on":null}`, true, false, ""},
		{"not an object", `[1]`, true, false, "invalid model compat settings: json: cannot unmarshal array into Go value of type provider.keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var k keys
			err := Compat(agentcore.Model{Compat: json.RawMessage(tc.compat)}, &k)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.on, Flag(k.On, true))
			assert.Equal(t, tc.off, Flag(k.Off, false))
		})
	}
}
