package schema

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// goldenCase is one case of testdata/golden.json, whose expected values
// testdata/oracle.mjs computed with the reference (pi-ai 1.5.2 over
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
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
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
				if err == nil || err.Error() != tc.CompileError {
					t.Fatalf("compile error %v; the reference fails with %q", err, tc.CompileError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, errs, err := vd.Parse(tc.Args)
			if err != nil {
				t.Fatal(err)
			}
			if tc.Want != nil {
				if errs != nil {
					t.Fatalf("errors %v; want %s", errs, *tc.Want)
				}
				if string(got) != *tc.Want {
					t.Fatalf("got  %s\nwant %s", got, *tc.Want)
				}
				return
			}
			if errs == nil {
				t.Fatalf("coerced to %s; want errors %v", got, tc.WantErr)
			}
			for i := range errs {
				errs[i].Keyword = ""
			}
			if !reflect.DeepEqual(errs, tc.WantErr) {
				t.Errorf("errors\n got  %v\n want %v", errs, tc.WantErr)
			}
			if _, err := ValidateToolArguments("tool", tc.Schema, tc.Args); err == nil || err.Error() != tc.Text {
				t.Errorf("text\n got  %v\n want %q", err, tc.Text)
			}
		})
	}
}
