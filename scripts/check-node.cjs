// Runs first in `npm install` (preinstall), on whatever Node the newcomer has, so an old Node is
// named with its fix before anything fails. Plain old syntax on purpose: it must parse on any Node.
// npm scripts here run on the Node 22 that the `node` devDependency installs (node_modules/.bin
// comes first on their PATH); only wrangler started outside npm uses the machine's own Node.
var required = [22, 12];
var parts = process.versions.node.split(".").map(Number);
var atLeast = function (major, minor) { return parts[0] > major || (parts[0] === major && parts[1] >= minor); };
if (!atLeast(18, 0)) {
  console.error("mcp-task-worker: Node " + process.versions.node + " is too old to install this project (npm needs Node 18 or later to run the install at all).\n" +
    "  Fix: install Node 22 (`nvm install` reads .nvmrc), then run `npm install` again.");
  process.exit(1);
}
if (!atLeast(required[0], required[1])) {
  console.error("mcp-task-worker: your Node is " + process.versions.node + "; wrangler needs " + required.join(".") + " or later.\n" +
    "  npm scripts (`npm run dev`, `npm test`, `npm exec -- wrangler …`) use the Node 22 this install brings, so they work as they are.\n" +
    "  A wrangler you start outside npm (a global one, ./node_modules/.bin/wrangler) needs Node 22: `nvm use` (.nvmrc).");
}
