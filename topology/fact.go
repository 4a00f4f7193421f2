package topology

// Evidence says where a fact came from: the command, what it printed that mattered, and why
// the fact could not be read when it could not.
type Evidence struct {
	Command string `json:"command,omitempty"`
	Excerpt string `json:"excerpt,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Fact is one collected value and how far it can be trusted (Status). An unknown fact makes
// the checks that need it report `error` with Source as evidence, never `pass`; Reason says
// why an unsupported or inferred fact is one.
type Fact[T any] struct {
	Value  T          `json:"value"`
	Status FactStatus `json:"status"`
	Reason string     `json:"reason,omitempty"`
	Source Evidence   `json:"source"`
}

// Known builds a fact that was read.
func Known[T any](v T, src Evidence) Fact[T] {
	return Fact[T]{Value: v, Status: FactKnown, Source: src}
}

// Unknown builds a fact that could not be read, with why.
func Unknown[T any](src Evidence) Fact[T] { return Fact[T]{Source: src} }

// Unsupported builds a fact the platform cannot express at all (community SONiC has no 802.3x
// knob): checks of it skip. v is what the platform does instead, for checks that compare
// platforms (SONiC's DCBX: static), or the zero value.
func Unsupported[T any](v T, reason string, src Evidence) Fact[T] {
	return Fact[T]{Value: v, Status: FactUnsupported, Reason: reason, Source: src}
}

// Inferred builds a fact the configuration does not state, taken from the platform default
// that reason names: still the best reading, but a pass on it is only a warning.
func Inferred[T any](v T, reason string, src Evidence) Fact[T] {
	return Fact[T]{Value: v, Status: FactInferred, Reason: reason, Source: src}
}

// InferredIf is Inferred when reason is set (the collector fell back to a default) and Known
// otherwise, for collectors that read a setting or else assume its default.
func InferredIf[T any](v T, reason string, src Evidence) Fact[T] {
	if reason == "" {
		return Known(v, src)
	}
	return Inferred(v, reason, src)
}

// Usable is whether Value may be judged: read, or inferred from a platform default.
func (f Fact[T]) Usable() bool { return f.Status == FactKnown || f.Status == FactInferred }

// HasValue is whether Value means anything: a usable fact, or an unsupported one's stand-in.
func (f Fact[T]) HasValue() bool { return f.Status != FactUnknown }

// Evidence is Source as a result shows it: the reason of an unsupported or inferred fact
// leads the excerpt, so a reader sees what was assumed beside what was read.
func (f Fact[T]) Evidence() Evidence {
	src := f.Source
	if f.Reason != "" {
		src.Excerpt = joinLines(f.Reason, src.Excerpt)
	}
	return src
}

func joinLines(a, b string) string {
	if b == "" {
		return a
	}
	return a + "\n" + b
}
