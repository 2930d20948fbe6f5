package coerce

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Middleware returns receiving middleware for an *mcp.Server that converts,
// in every tools/call, the decimal strings the tool's input schema declares
// (see Arguments) before the request goes on to the SDK, which validates the
// arguments and unmarshals them for typed handlers. Add it before other
// middleware that reads arguments:
//
//	server.AddReceivingMiddleware(coerce.Middleware())
//
// The tool's schema is the one the server lists: the middleware reads it
// through the handlers after it (a tools/list of its own), so tools added or
// removed while the server runs are seen as they are. A call with a string
// its parameter refuses is answered with a tool execution error
// (CallToolResult.IsError, the message naming each argument), as the
// specification asks of input validation errors (2025-11-25, server/tools,
// "Error Handling"); a call to an unknown tool goes on unchanged, for the
// SDK to answer.
func Middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || method != "tools/call" || call.Params == nil || len(call.Params.Arguments) == 0 {
				return next(ctx, method, req)
			}
			tool, err := findTool(ctx, next, call)
			if err != nil || tool == nil {
				return next(ctx, method, req)
			}
			args, changed, err := convert(tool.InputSchema, call.Params.Arguments)
			if err != nil {
				res := &mcp.CallToolResult{}
				res.SetError(err)
				return res, nil
			}
			if !changed {
				return next(ctx, method, req)
			}
			params := *call.Params
			params.Arguments = args
			converted := *call
			converted.Params = &params
			return next(ctx, method, &converted)
		}
	}
}

// findTool pages through tools/list, as the handlers after the middleware
// answer it, for the tool call names.
func findTool(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest) (*mcp.Tool, error) {
	cursor := ""
	seen := map[string]bool{}
	for {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Extra: call.Extra, Params: &mcp.ListToolsParams{Cursor: cursor}})
		if err != nil {
			return nil, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return nil, nil
		}
		for _, t := range list.Tools {
			if t != nil && t.Name == call.Params.Name {
				return t, nil
			}
		}
		if list.NextCursor == "" || seen[list.NextCursor] {
			return nil, nil
		}
		seen[list.NextCursor] = true
		cursor = list.NextCursor
	}
}
