package jsonscan

// Offset is the scanner's position in its text: after Peek, the first byte of the next value;
// after a value is consumed, the byte after it. A parser that walks a document for its own
// fields can so keep a value's raw text (as json.RawMessage would hold it) without a second
// scan of the document.
func (sc *Scanner) Offset() int { return sc.i }
