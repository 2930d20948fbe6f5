// Writes what Zod 4's z.toJSONSchema emits for the argument shapes of the
// gen-zod4-* cases in testdata/realworld to output/realworld/*.json. The
// Go test internal/realworld checks that each case's tools.json carries
// exactly these schemas.
//
//   npm ci && node gen.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { realworldShapes } from "../realworld-shapes.mjs";

const shapes = realworldShapes(z);

mkdirSync("output/realworld", { recursive: true });
for (const [name, schema] of Object.entries(shapes)) {
  let out;
  try {
    out = z.toJSONSchema(schema);
  } catch (e) {
    // Unrepresentable types throw by default; record what a server gets
    // when it asks Zod to write them as {} instead, as MCP SDKs do.
    out = z.toJSONSchema(schema, { unrepresentable: "any" });
  }
  writeFileSync(`output/realworld/${name}.json`, JSON.stringify(out, null, 2) + "\n");
}
