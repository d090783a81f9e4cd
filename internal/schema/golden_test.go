package schema

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenCase is one case of testdata/golden.json, whose expected values
// testdata/oracle.mjs computed with the reference (pi-ai 1.6.0 over
// pi-schema) from testdata/cases.json.
type goldenCase struct {
	Name         string            `json:"name"`
	Schema       json.RawMessage   `json:"schema"`
	Args         json.RawMessage   `json:"args"`
	ArgsText     *string           `json:"argsText"`
	Want         *string           `json:"want"`
	WantErr      []ValidationError `json:"wantErr"`
	Text         string            `json:"text"`
	CompileError string            `json:"compileError"`
}

func loadGolden(t *testing.T) []goldenCase {
	t.Helper()
	data, err := os.ReadFile("testdata/golden.json")
	require.NoError(t, err)
	var cases []goldenCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	return cases
}

func TestGoldenAgainstReference(t *testing.T) {
	for _, tc := range loadGolden(t) {
		if tc.ArgsText != nil {
			tc.Args = json.RawMessage(*tc.ArgsText)
		}
		t.Run(tc.Name, func(t *testing.T) {
			vd, err := Compile(tc.Schema)
			if tc.CompileError != "" {
				require.EqualError(t, err, tc.CompileError, "the reference's compile error")
				return
			}
			require.NoError(t, err)
			got, errs, err := vd.Parse(tc.Args)
			require.NoError(t, err)
			if tc.Want != nil {
				require.Nil(t, errs, "want %s", *tc.Want)
				assert.Equal(t, *tc.Want, string(got))
				return
			}
			require.NotNil(t, errs, "coerced to %s; want errors %v", got, tc.WantErr)
			for i := range errs {
				errs[i].Keyword = ""
			}
			assert.Equal(t, tc.WantErr, errs)
			_, err = ValidateToolArguments("tool", tc.Schema, tc.Args)
			assert.EqualError(t, err, tc.Text)
		})
	}
}
