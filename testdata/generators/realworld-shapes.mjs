// The argument shapes of the gen-zod3-* and gen-zod4-* cases in
// testdata/realworld, written once for both majors: z is the Zod module of
// the generator that imports this file (zod/gen.mjs, zod4/gen.mjs), which
// writes what its major's JSON Schema writer makes of each.
export function realworldShapes(z) {
  return {
    "object-optional-nullable": z.object({
      title: z.string().describe("Title of the note"),
      folder: z.string().nullable(),
      tags: z.array(z.string()).optional(),
      kind: z.enum(["note", "task"]),
      version: z.literal(1),
    }),
    tuple: z.object({ range: z.tuple([z.number(), z.number()]) }),
    // Key and value schemas both: Zod 4 requires the two, Zod 3 takes them.
    record: z.object({ headers: z.record(z.string(), z.string()) }),
    "union-root": z.union([z.object({ url: z.string() }), z.object({ path: z.string() })]),
    "discriminated-union-root": z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("url"), url: z.string() }),
      z.object({ kind: z.literal("file"), path: z.string() }),
    ]),
    "bigint-date": z.object({ id: z.bigint(), due: z.date() }),
  };
}
