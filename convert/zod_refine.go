package convert

// refinements checks the composition keywords Zod has no combinator for
// ("not", "if"/"then"/"else") by running the subschemas' Zod form inside
// a refinement, which gives JSON Schema's verdict. A refinement is not
// seen by converters from Zod back to JSON Schema, so the SDK's tools/list
// omits these constraints even though the server enforces them.
func (e *zodEmitter) refinements(s map[string]any, ptr string) string {
	var code string
	here := e.here(s)
	if n, ok := s["not"]; ok {
		c := e.exprAs(n, ptr+"/not", here)
		code += ".refine(" + e.use("not") + "(" + c + "), { message: \"must not match the schema in not\" })"
	}
	if cond, ok := s["if"]; ok {
		_, hasThen := s["then"]
		_, hasElse := s["else"]
		if hasThen || hasElse {
			c := e.exprAs(cond, ptr+"/if", here)
			then, els := "null", "null"
			if hasThen {
				then = e.exprAs(s["then"], ptr+"/then", here)
			}
			if hasElse {
				els = e.exprAs(s["else"], ptr+"/else", here)
			}
			code += ".refine(" + e.use("ifThenElse") + "(" + c + ", " + then + ", " + els + "), { message: \"must match then or else as if decides\" })"
		}
	}
	return code
}
