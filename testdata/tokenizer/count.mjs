// Reads a JSON array of strings on standard input and writes the number of
// tokens OpenAI's o200k_base encoding makes of each, as a JSON array: the
// real counts mcplint's estimate (package tokens) is tested against.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
process.stdout.write(JSON.stringify(texts.map((t) => countTokens(t))) + "\n");
