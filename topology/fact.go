package topology

// Evidence says where a fact came from: the command, what it printed that mattered, and why
// the fact could not be read when it could not.
type Evidence struct {
	Command string `json:"command,omitempty"`
	Excerpt string `json:"excerpt,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Fact is one collected value. Known is false when the value could not be read; checks that
// need it then report `error` with Source as evidence, never `pass`.
type Fact[T any] struct {
	Value  T        `json:"value"`
	Known  bool     `json:"known"`
	Source Evidence `json:"source"`
}

// Known builds a fact that was read.
func Known[T any](v T, src Evidence) Fact[T] { return Fact[T]{Value: v, Known: true, Source: src} }

// Unknown builds a fact that could not be read, with why.
func Unknown[T any](src Evidence) Fact[T] { return Fact[T]{Source: src} }
