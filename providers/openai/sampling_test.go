package openai

import "testing"

func TestWithSamplingParams(t *testing.T) {
	tests := []struct {
		name, body, params, want string
		wantErr                  bool
	}{
		{name: "none", body: `{"model":"m","temperature":1}`, params: ``, want: `{"model":"m","temperature":1}`},
		{name: "null", body: `{"model":"m"}`, params: `null`, want: `{"model":"m"}`},
		{name: "override in place, new last", body: `{"model":"m","temperature":1,"stream":true}`, params: `{"top_p":0.9,"temperature":0.2}`,
			want: `{"model":"m","temperature":0.2,"stream":true,"top_p":0.9}`},
		{name: "not an object", body: `{"model":"m"}`, params: `[1]`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withSamplingParams([]byte(tt.body), []byte(tt.params))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %s", got)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
		})
	}
}
