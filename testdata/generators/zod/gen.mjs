// Writes what zod-to-json-schema emits for a plain schema, a recursive one
// and one that nests a recursive one, with and without a name, to
// output/*.json. The Go tests in
// rules/ check that their case inputs carry exactly these schemas.
//
//   npm ci && node gen.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";

const SearchArgs = z.object({
  query: z.string().describe("Text to search for"),
  limit: z.number().int().min(1).max(50).optional(),
});

const Category = z.lazy(() =>
  z.object({
    name: z.string(),
    subcategories: z.array(Category),
  }),
);

const Outline = z.object({
  title: z.string(),
  root: Category,
});

const outputs = {
  "plain.json": zodToJsonSchema(SearchArgs),
  "plain-named.json": zodToJsonSchema(SearchArgs, "SearchArgs"),
  "recursive.json": zodToJsonSchema(Category),
  "recursive-named.json": zodToJsonSchema(Category, "Category"),
  "nested.json": zodToJsonSchema(Outline),
  "nested-named.json": zodToJsonSchema(Outline, "Outline"),
};

mkdirSync("output", { recursive: true });
for (const [file, schema] of Object.entries(outputs)) {
  writeFileSync(`output/${file}`, JSON.stringify(schema, null, 2) + "\n");
}
