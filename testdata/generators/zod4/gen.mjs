// Writes what Zod 4's z.toJSONSchema emits for the argument shapes of the
// gen-zod4-* cases in testdata/realworld to output/realworld/*.json. The
// Go test internal/realworld checks that each case's tools.json carries
// exactly these schemas.
//
//   npm ci && node gen.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { z } from "zod";

const shapes = {
  "object-optional-nullable": z.object({
    title: z.string().describe("Title of the note"),
    folder: z.string().nullable(),
    tags: z.array(z.string()).optional(),
    kind: z.enum(["note", "task"]),
    version: z.literal(1),
  }),
  tuple: z.object({ range: z.tuple([z.number(), z.number()]) }),
  record: z.object({ headers: z.record(z.string(), z.string()) }),
  "union-root": z.union([z.object({ url: z.string() }), z.object({ path: z.string() })]),
  "discriminated-union-root": z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("url"), url: z.string() }),
    z.object({ kind: z.literal("file"), path: z.string() }),
  ]),
  "bigint-date": z.object({ id: z.bigint(), due: z.date() }),
};

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
