// Runs the npm package fairy-stockfish-nnue.wasm as a UCI/USI process for `cellfish bench ladder`.
// usage: node --no-experimental-fetch fsf_wrapper.js <package dir>
// Relays stdin to the engine line by line (its output goes to stdout as it prints). The engine
// lives in WebAssembly with an in-memory file system, so "setoption name VariantPath value
// <real file>" is rewritten: the real file is copied into that file system first.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");

async function main() {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write("usage: fsf_wrapper.js <fairy-stockfish-nnue.wasm package dir>\n");
    process.exit(2);
  }
  const Stockfish = require(path.resolve(dir, "stockfish.js"));
  const engine = await Stockfish();
  const iface = readline.createInterface({ input: process.stdin });
  let n = 0;
  for await (const raw of iface) {
    let line = raw.trim();
    if (line === "quit") break;
    const m = /^setoption\s+name\s+VariantPath\s+value\s+(.+)$/i.exec(line);
    if (m && m[1] !== "<empty>") {
      try {
        const data = fs.readFileSync(m[1]);
        const inner = `/variants${n++}.ini`;
        engine.FS.writeFile(inner, data);
        line = `setoption name VariantPath value ${inner}`;
      } catch (e) {
        process.stdout.write(`info string error: cannot read VariantPath ${m[1]}: ${e.message}\n`);
        continue;
      }
    }
    engine.postMessage(line);
  }
  engine.postMessage("quit");
  setTimeout(() => process.exit(0), 200);
}

main();
