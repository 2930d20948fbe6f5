package manifest

import (
	"bytes"
	"encoding/json"
)

// Trailing reports where something other than white space follows the
// value dec decoded from src, for a file that holds one JSON value (a
// baseline, a lock file): encoding/json stops after the first value, and a
// half-resolved merge after it must not pass for the file.
func Trailing(src []byte, dec *json.Decoder) (Position, bool) {
	off := int(dec.InputOffset())
	rest := bytes.TrimLeft(src[off:], " \t\r\n")
	if len(rest) == 0 {
		return Position{}, false
	}
	return (&Manifest{Src: src}).Position(len(src) - len(rest)), true
}
