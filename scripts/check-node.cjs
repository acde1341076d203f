// Runs first in `npm install` (preinstall), on whatever Node the newcomer has, so an old Node is
// named with its fix before anything fails. Plain old syntax on purpose: it must parse on any Node.
// npm scripts here run on the Node 22 that the `node` devDependency installs (node_modules/.bin
// comes first on their PATH); only wrangler started outside npm uses the machine's own Node.
var REQUIRED = [22, 12];

/** What to tell the user of Node `version` ("20.20.2"): stop the install, a notice, or nothing. */
function verdict(version) {
  var parts = String(version).split(".").map(Number);
  var atLeast = function (major, minor) { return parts[0] > major || (parts[0] === major && parts[1] >= minor); };
  if (!atLeast(18, 0)) {
    return { stop: true, message: "mcp-task-worker: Node " + version + " is too old to install this project (npm needs Node 18 or later to run the install at all).\n" +
      "  Fix: install Node 22 (`nvm install` reads .nvmrc), then run `npm install` again." };
  }
  if (!atLeast(REQUIRED[0], REQUIRED[1])) {
    return { stop: false, message: "mcp-task-worker: your Node is " + version + "; wrangler needs " + REQUIRED.join(".") + " or later.\n" +
      "  npm scripts (`npm run dev`, `npm test`, `npm exec -- wrangler …`) use the Node 22 this install brings, so they work as they are.\n" +
      "  A wrangler you start outside npm (a global one, ./node_modules/.bin/wrangler) needs Node 22: `nvm use` (.nvmrc)." };
  }
  return { stop: false, message: "" };
}

if (require.main === module) {
  var result = verdict(process.versions.node);
  if (result.message) console.error(result.message);
  if (result.stop) process.exit(1);
}

module.exports = { verdict: verdict };
