// Writes what zod-to-json-schema emits for a plain schema, a recursive one
// and one that nests a recursive one, with and without a name, to
// output/*.json. The Go tests in
// rules/ check that their case inputs carry exactly these schemas.
//
// It also writes the argument shapes of the gen-zod3-* cases in
// testdata/realworld to output/realworld/*.json; internal/realworld checks
// that each case's tools.json carries exactly those schemas.
//
//   npm ci && node gen.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { realworldShapes } from "../realworld-shapes.mjs";

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

const realworld = realworldShapes(z);

mkdirSync("output/realworld", { recursive: true });
for (const [name, schema] of Object.entries(realworld)) {
  writeFileSync(`output/realworld/${name}.json`, JSON.stringify(zodToJsonSchema(schema), null, 2) + "\n");
}
